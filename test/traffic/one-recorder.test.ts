/**
 * One recorder: an exchange the runner makes and the same exchange seen by `proxy` or `verify` are recorded alike
 * (the same request, the same answer: what checks judge as JSON, the text, the redaction), and tell the same
 * caller. Each answer below is served on loopback, sent through the runner's client, then fed to the traffic
 * recorder as an observed exchange.
 */
import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { callerOf } from "../../src/core/caller.ts";
import type { Exchange } from "../../src/core/exchange.ts";
import { ExchangeRecorder } from "../../src/traffic/record.ts";
import { onLoopback, testClient } from "../helpers/loopback.ts";
import { bundledSpec } from "../helpers/reference.ts";

const spec = await bundledSpec();
const token = "tok-".repeat(8);

/** Content type and body of each answer, by path. */
const answers: Record<string, { readonly type: string; readonly body: string }> = {
  "/object": { type: "application/json", body: '{"id":5,"label":"web"}' },
  "/number": { type: "application/json", body: "42" },
  "/null": { type: "application/json; charset=utf-8", body: "null" },
  "/text-json": { type: "text/json", body: '{"id":5}' },
  "/problem": { type: "application/problem+json", body: '{"errors":[{"reason":"no"}]}' },
  "/broken": { type: "application/json", body: '{"id":' },
  "/mislabelled": { type: "text/plain", body: '{"id":5,"token":"issued-secret-value-1234"}' },
  "/secret-key": { type: "application/json", body: '{"client_secret":"issued-secret-value-5678"}' },
  "/empty": { type: "application/json", body: "" },
};

const origin = onLoopback(
  createServer((request, response) => {
    const answer = answers[request.url ?? ""] ?? { type: "text/plain", body: "none" };
    response.writeHead(200, { "content-type": answer.type }).end(answer.body);
  }),
);

/** The parts of a record both paths must agree on (ids, timings and operations are each path's own). */
function comparable(exchange: Exchange) {
  const { request, response } = exchange;
  const {
    date: _date,
    connection: _connection,
    "keep-alive": _keepAlive,
    ...headers
  } = response?.headers ?? {};
  return { request, response: { ...response, headers } };
}

describe("one recorder for the runner, the proxy and verify", () => {
  it.each(Object.keys(answers))("records %s alike", async (path) => {
    const client = testClient();
    const url = `${origin()}${path}`;
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const body = '{"label":"web","root_pass":"sent-secret-value-9012"}';
    const live = await client.send({ method: "POST", url, headers, body });
    await client.close();
    const recorder = new ExchangeRecorder(spec);
    const observed = recorder.record({
      method: "POST",
      url,
      requestHeaders: headers,
      requestBody: body,
      response: { status: live.status, headers: live.headers, body: live.text },
      startedAt: 0,
      headersMs: 0,
      totalMs: 0,
    });
    expect(comparable(observed)).toEqual(comparable(live.exchange));
  });

  it("tells a caller by one digest, whatever the header's case; none without a credential", () => {
    const caller = callerOf({ authorization: `Bearer ${token}` });
    expect(caller).toMatch(/^[\w-]{16}$/);
    expect(callerOf({ Authorization: `Bearer ${token}` })).toBe(caller);
    expect(callerOf({ AUTHORIZATION: `Bearer ${token}` })).toBe(caller);
    expect(callerOf({ authorization: "Bearer other-token-value" })).not.toBe(caller);
    const noCaller: Record<string, string>[] = [
      {},
      { authorization: "Bearer " },
      { authorization: "Bearer [REDACTED]" },
    ];
    for (const none of noCaller) expect(callerOf(none)).toBeUndefined();
  });
});
