/**
 * The run's listen driver as the workflow suites use it (see src/runner/listen-drivers): made once per suite from
 * `suiteOptions.listen` and the target, closed when the run is interrupted, its output copied into the case's log.
 * @module
 */
import { createListenDriver, type ListenDriver, readListenOptions } from "../runner/listen-drivers/index.ts";
import { type CaseContext, sharedKey } from "../runner/suite-api.ts";

const driverKey = sharedKey<ListenDriver>("listen-driver");

/** The driver an earlier case of the suite made, or undefined (never makes one: for the case that closes it). */
export function madeListenDriver(t: CaseContext): ListenDriver | undefined {
  return t.shared.get(driverKey);
}

/** The run's listen driver, made once per suite; a malformed `suiteOptions.listen` skips the case with the reason. */
export function listenDriver(t: CaseContext): ListenDriver {
  const existing = madeListenDriver(t);
  if (existing) return existing;
  const { options, problem } = readListenOptions(t.options);
  if (problem) return t.skip(problem);
  const driver = createListenDriver(options, t.target);
  // Listeners never outlive an interrupted run.
  t.signal.addEventListener("abort", () => void driver.close(), { once: true });
  t.shared.set(driverKey, driver);
  return driver;
}

/** Copies what the driver printed (commands, their output, listeners opened and closed) into the case's log. */
export function logDriverOutput(t: CaseContext, driver: ListenDriver): void {
  for (const line of driver.takeOutput()) t.log(`listen: ${line}`);
}
