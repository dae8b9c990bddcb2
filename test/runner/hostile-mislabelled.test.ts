/**
 * A target whose only fault is labelling its JSON `text/plain`. A small proxy of our own (node:http on 127.0.0.1)
 * stands in front of the reference server and relabels every JSON answer; it notes every secret the target hands
 * out (tokens, client secrets). A full run with writes allowed, every reporter on, must write none of them to
 * report.json, report.html, junit.xml, summary.md or the console, and leave nothing of the run on the target.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createReferenceServer } from "../../src/reference/server.ts";
import { labelPrefixOf } from "../../src/runner/labels.ts";
import { labelMatches } from "../../src/runner/leftovers.ts";
import { embeddedRateLimits, embeddedTimeScale } from "../../src/runner/target.ts";
import { fullRunThrough } from "../helpers/full-run.ts";
import { bundledSpec } from "../helpers/reference.ts";
import { startRewritingProxy } from "../helpers/rewriting-proxy.ts";

const reference = await createReferenceServer({
  spec: await bundledSpec(),
  http: true,
  timeScale: embeddedTimeScale,
  ...embeddedRateLimits,
});

/** Every secret the target handed out, as the proxy saw it go by. */
const issued = new Set<string>();
const secretKeys = /^(token|secret|client_secret|access_token|refresh_token)$/;
function noteSecrets(value: unknown): void {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== "object" || item === null) continue;
    for (const [key, entry] of Object.entries(item)) {
      // Lists show a token's first characters then `...`, and reads a client's secret as `<REDACTED>`: what is
      // shown there is not the secret.
      const shown = typeof entry === "string" && (entry.endsWith("...") || entry === "<REDACTED>");
      if (secretKeys.test(key) && typeof entry === "string" && entry.length >= 8 && !shown) issued.add(entry);
      else stack.push(entry);
    }
  }
}

// Every answer labelled JSON goes out as text/plain; what it handed out is noted as it goes by.
const proxy = await startRewritingProxy(reference.authUrl, (headers, body) => {
  if (!/json/.test(String(headers["content-type"]))) return;
  headers["content-type"] = "text/plain; charset=utf-8";
  void body.then((bytes) => {
    try {
      noteSecrets(JSON.parse(bytes.toString("utf8")));
    } catch {}
  });
});
const origin = proxy.origin;
afterAll(async () => {
  await proxy.close();
  await reference.close();
});

describe("a target that labels its JSON text/plain", () => {
  it("gets no secret it issued written anywhere, and keeps nothing of the run", async () => {
    const runId = "20261124T000000Z-mislabel";
    const { finished, consoleText, outputDir } = await fullRunThrough(reference, origin, runId, [
      "console",
      "json",
      "junit",
      "html",
      "markdown",
    ]);
    expect(finished.exitCode).toBe(1);

    // Secrets: the proxy saw tokens and client secrets go by; none is in any output.
    for (const record of reference.state.tokens.values()) issued.add(record.token);
    for (const record of reference.state.oauthClients.values()) if (record.secret) issued.add(record.secret);
    expect(issued.size).toBeGreaterThan(3);
    const outputs: Record<string, string> = { console: consoleText };
    for (const file of readdirSync(outputDir, { recursive: true, encoding: "utf8" }))
      if (/\.(json|html|xml|md)$/.test(file)) outputs[file] = readFileSync(join(outputDir, file), "utf8");
    expect(Object.keys(outputs).sort()).toEqual(
      ["console", "junit.xml", "report.html", "report.json", "summary.md"].sort(),
    );
    const leaks = Object.entries(outputs).flatMap(([name, text]) =>
      [...issued]
        .filter((secret) => text.includes(secret))
        .map((secret) => `${name}: ${secret.slice(0, 6)}…`),
    );
    expect(leaks).toEqual([]);

    // Nothing of the run left on the target.
    const prefix = labelPrefixOf("conform", runId);
    const { state } = reference;
    const mine = (records: Iterable<{ label: string }>, kind: string) =>
      [...records].filter((record) => labelMatches(record.label, prefix)).map((r) => `${kind} ${r.label}`);
    const left = [
      ...mine(state.nodeBalancers.values(), "load balancer"),
      ...mine(state.instances.values(), "instance"),
      ...mine(state.oauthClients.values(), "OAuth client"),
      ...mine(state.tokens.values(), "token"),
    ];
    expect(left).toEqual([]);
  }, 300_000);
});
