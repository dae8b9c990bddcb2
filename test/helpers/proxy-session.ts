/** A proxy started in-process (`runProxy`) for a test: its URL, its events, and how to stop it. */

import type { RunEvent, RunFinished } from "../../src/core/events.ts";
import { type RunConfig, runConfigDefaults } from "../../src/runner/config.ts";
import type { RunOptions } from "../../src/runner/run.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { type ProxyOptions, runProxy } from "../../src/traffic/proxy.ts";

export const proxyConfig: RunConfig = { ...runConfigDefaults, specPath: bundledSpecPath, reporters: [] };

export interface Proxy {
  readonly url: string;
  readonly events: RunEvent[];
  /** Settles when the proxy ends by itself (`--max-time`) or is stopped. */
  readonly finished: Promise<RunFinished>;
  stop(): Promise<RunFinished>;
}

export async function startProxy(
  target: string,
  more: {
    config?: Partial<RunConfig>;
    httpsCertFile?: string;
    reportEveryMs?: number;
    listeners?: RunOptions["listeners"];
    confirm?: ProxyOptions["confirm"];
  } = {},
): Promise<Proxy> {
  const events: RunEvent[] = [];
  const controller = new AbortController();
  let url = "";
  let listening: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    listening = resolve;
  });
  const finished = runProxy(
    { ...proxyConfig, ...more.config },
    {
      ...(more.confirm ? { confirm: more.confirm } : {}),
      ...(more.httpsCertFile ? { httpsCertFile: more.httpsCertFile } : {}),
      ...(more.reportEveryMs ? { reportEveryMs: more.reportEveryMs } : {}),
      runId: "20261124T000000Z-proxy",
      listeners: [(event) => void events.push(event), ...(more.listeners ?? [])],
      signal: controller.signal,
      toolVersion: "test",
      target,
      onListening: (at) => {
        url = at;
        listening();
      },
    },
  );
  await Promise.race([ready, finished]);
  return {
    get url() {
      return url;
    },
    events,
    finished,
    stop: () => {
      controller.abort();
      return finished;
    },
  };
}
