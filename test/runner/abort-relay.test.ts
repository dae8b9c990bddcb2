import { describe, expect, it } from "vitest";
import { abortRelayOf } from "../../src/runner/abort-relay.ts";

describe("abortRelayOf", () => {
  it("gives one relay per signal", () => {
    const first = new AbortController().signal;
    const second = new AbortController().signal;
    expect(abortRelayOf(first)).toBe(abortRelayOf(first));
    expect(abortRelayOf(first)).not.toBe(abortRelayOf(second));
  });

  it("relays the abort once to every listener, with the signal's reason", () => {
    const controller = new AbortController();
    const relay = abortRelayOf(controller.signal);
    const heard: unknown[] = [];
    for (let index = 0; index < 20; index += 1) relay.once("abort", () => heard.push(relay.reason));
    const removed = () => heard.push("removed listener called");
    relay.once("abort", removed);
    relay.removeListener("abort", removed);
    expect(relay.reason).toBeUndefined();
    const reason = new Error("interrupted");
    controller.abort(reason);
    controller.abort(new Error("again"));
    expect(heard).toEqual(Array.from({ length: 20 }, () => reason));
  });

  it("has no `aborted` property: undici would hand it to Node's addAbortListener, which takes AbortSignals only", () => {
    expect("aborted" in abortRelayOf(new AbortController().signal)).toBe(false);
  });
});
