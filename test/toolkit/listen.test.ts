import { describe, expect, it, vi } from "vitest";
import type { ListenDriver } from "../../src/runner/listen-drivers/index.ts";
import { listenDriver, logDriverOutput, madeListenDriver } from "../../src/toolkit/listen.ts";
import { fakeCase, specWith } from "../helpers/fake-case.ts";

const spec = await specWith();
/** A case with `suiteOptions` `options`; `shared` is the suite's. */
const fakeContext = (options: Record<string, unknown>, shared?: Map<string, unknown>) =>
  fakeCase(spec, undefined, { options, shared });

describe("listenDriver", () => {
  it.each([
    [{}, "reference"],
    [{ listen: { driver: "none" } }, "none"],
    [{ listen: { driver: "command", command: "nc -lk {port}" } }, "command"],
  ])("with suiteOptions %j makes the %s driver", async (options, kind) => {
    const { t } = fakeContext(options);
    const driver = listenDriver(t);
    expect(driver.kind).toBe(kind);
    await driver.close();
  });

  it.each([
    [{ listen: { driver: "telepathy" } }, /listen driver telepathy is unknown/],
    [{ listen: "reference" }, /suiteOptions.listen must be an object/],
    [{ listen: { port: 70_000 } }, /listen.port must be a port number/],
  ])("skips the case for the malformed %j", (options, reason) => {
    expect(() => listenDriver(fakeContext(options).t)).toThrow(reason);
  });

  it("is made once per suite: later cases get the same driver, which none makes before", async () => {
    const shared = new Map<string, unknown>();
    const first = fakeContext({ listen: { driver: "none" } }, shared).t;
    const later = fakeContext({ listen: { driver: "none" } }, shared).t;
    expect(madeListenDriver(later)).toBeUndefined();
    const driver = listenDriver(first);
    expect(listenDriver(later)).toBe(driver);
    expect(madeListenDriver(later)).toBe(driver);
    expect(madeListenDriver(fakeContext({}).t)).toBeUndefined();
    await driver.close();
  });

  it("closes the driver when the run is interrupted, not before", () => {
    const controller = new AbortController();
    const { t } = fakeCase(spec, undefined, {
      options: { listen: { driver: "none" } },
      signal: controller.signal,
    });
    const driver = listenDriver(t);
    const close = vi.spyOn(driver, "close");
    expect(close).not.toHaveBeenCalled();
    controller.abort();
    expect(close).toHaveBeenCalledOnce();
  });
});

describe("logDriverOutput", () => {
  it.each([
    [
      ["listening on 127.168.0.1:8080", "stopped"],
      ["listen: listening on 127.168.0.1:8080", "listen: stopped"],
    ],
    [[], []],
  ])("copies %j into the case's log", (lines, logged) => {
    const { t, logs } = fakeContext({});
    logDriverOutput(t, { takeOutput: () => lines } as unknown as ListenDriver);
    expect(logs).toEqual(logged);
  });
});
