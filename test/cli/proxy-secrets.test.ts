/**
 * The crafted placements of secrets (`test/fixtures/secret-placements.ts`) through `conform proxy` for real: a
 * loopback target answers each placement's answers, a client sends its requests through the proxy. No secret in the
 * console nor in any report; the HAR, written as traffic comes, can hold a secret only where it was shown before a
 * later answer named it one (the reports are scrubbed again when the case ends, a streamed HAR cannot be).
 * Placements in a URL's userinfo do not apply: a client turns userinfo into a header before it sends anything.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { secretPlacements } from "../fixtures/secret-placements.ts";
import { startProxy } from "../helpers/proxy-child.ts";

const placements = secretPlacements().filter((placement) =>
  placement.exchanges.every((observed) => !/^https?:\/\/[^/]*@/.test(observed.url)),
);
const seenBeforeLearnt = "seen in free text before it is learnt";

describe("secrets placed in traffic through conform proxy", () => {
  it("are in no output (the streamed HAR only holds one shown before it was learnt)", async () => {
    // The target answers what the placement says for the request's step.
    const target = createServer((incoming, outgoing) => {
      const placement = placements[Number(incoming.headers["x-placement"])];
      const answer = placement?.exchanges[Number(incoming.headers["x-step"])]?.response;
      incoming.resume();
      incoming.on("end", () => {
        outgoing.writeHead(answer?.status ?? 404, answer?.headers ?? {});
        outgoing.end(answer?.body ?? "");
      });
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    const dir = mkdtempSync(join(tmpdir(), "conform-proxy-secrets-"));
    let started: ChildProcess | undefined;
    try {
      const proxy = startProxy(
        `http://127.0.0.1:${(target.address() as AddressInfo).port}`,
        join(dir, "reports"),
        ["--har", join(dir, "proxy.har")],
      );
      started = proxy.child;
      const url = await proxy.url;
      for (const [index, placement] of placements.entries())
        for (const [step, observed] of placement.exchanges.entries()) {
          const path = new URL(observed.url);
          const answer = await request(`${url}${path.pathname}${path.search}`, {
            method: observed.method as "GET",
            headers: { ...observed.requestHeaders, "x-placement": String(index), "x-step": String(step) },
            body: observed.requestBody,
          });
          await answer.body.text();
        }
      proxy.child.kill("SIGTERM");
      await proxy.exited;
      const latest = join(dir, "reports", "latest");
      const outputs: [string, string][] = [
        ["console", proxy.output()],
        ...readdirSync(latest).map((name): [string, string] => [
          name,
          readFileSync(join(latest, name), "utf8"),
        ]),
      ];
      const har = readFileSync(join(dir, "proxy.har"), "utf8");
      const leaks = placements.flatMap((placement) => [
        ...outputs
          .filter(([, text]) => text.includes(placement.secret))
          .map(([where]) => `${placement.name} in ${where}`),
        ...(placement.name !== seenBeforeLearnt && har.includes(placement.secret)
          ? [`${placement.name} in the HAR`]
          : []),
      ]);
      expect(leaks).toEqual([]);
    } finally {
      // A failed assertion leaves no proxy behind.
      if (started && started.exitCode === null && started.signalCode === null) started.kill("SIGKILL");
      await new Promise((resolve) => target.close(resolve));
    }
  }, 120_000);
});
