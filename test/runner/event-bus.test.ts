import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/core/events.ts";
import { EventBus } from "../../src/runner/event-bus.ts";

const warning = (message: string): RunEvent => ({ type: "warning", message });
const messageOf = (event: RunEvent) => (event.type === "warning" ? event.message : event.type);
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe("EventBus", () => {
  it("calls a listener with nothing pending at once, in order", () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.subscribe((event) => {
      seen.push(messageOf(event));
    });
    bus.emit(warning("a"));
    bus.emit(warning("b"));
    expect(seen).toEqual(["a", "b"]);
  });

  it.each([
    ["every call async", (index: number) => index >= 0],
    ["only the first call async", (index: number) => index === 0],
    ["every other call async", (index: number) => index % 2 === 0],
  ])("keeps order behind a slow async listener (%s)", async (_name, isAsync) => {
    const bus = new EventBus();
    const seen: string[] = [];
    let calls = 0;
    bus.subscribe(async (event) => {
      if (isAsync(calls++)) await tick();
      seen.push(messageOf(event));
    });
    for (const message of ["a", "b", "c", "d", "e"]) bus.emit(warning(message));
    await bus.flush();
    expect(seen).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("does not let a slow listener hold back another one", async () => {
    const bus = new EventBus();
    const fast: string[] = [];
    bus.subscribe(() => tick());
    bus.subscribe((event) => {
      fast.push(messageOf(event));
    });
    bus.emit(warning("a"));
    bus.emit(warning("b"));
    expect(fast).toEqual(["a", "b"]);
    await bus.flush();
  });

  it.each([
    [
      "thrown",
      () => {
        throw new Error("boom");
      },
    ],
    ["rejected", () => Promise.reject(new Error("boom"))],
  ])(
    "keeps a listener's failure (%s), delivers the later events, and rethrows it at flush",
    async (_name, fail) => {
      const bus = new EventBus();
      const seen: string[] = [];
      let calls = 0;
      bus.subscribe((event) => {
        if (calls++ === 0) return fail();
        seen.push(messageOf(event));
      });
      const other: string[] = [];
      bus.subscribe((event) => {
        other.push(messageOf(event));
      });
      bus.emit(warning("a"));
      bus.emit(warning("b"));
      await expect(bus.flush()).rejects.toThrow("boom");
      expect(seen).toEqual(["b"]);
      expect(other).toEqual(["a", "b"]);
    },
  );

  it("flush waits for calls chained while it waits", async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.subscribe(async (event) => {
      await tick();
      seen.push(messageOf(event));
    });
    bus.emit(warning("a"));
    const flushed = bus.flush();
    bus.emit(warning("b"));
    await flushed;
    expect(seen).toEqual(["a", "b"]);
  });
});
