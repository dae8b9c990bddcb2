// Plain JavaScript, loaded before any module of conform: a SIGINT or SIGTERM that comes while a reporting command
// still loads is held (Node's default action would end the process with no report), for the run's handlers
// (src/cli/interruption.ts `takeHeldSignal`) to act on when they install. A second one while held quits at once,
// by the signal, as a second signal does during a run.

/** Where the hold is found: a registered symbol, so the sources and the build reach the same one. */
const holdKey = Symbol.for("conform.signalHold");
const signals = ["SIGINT", "SIGTERM"];

/** The commands whose run writes reports: only those hold a signal; the others keep Node's default. */
export const reportingCommands = ["run", "fuzz", "verify", "proxy"];

/** Starts holding SIGINT and SIGTERM until the hold's `take()`: it stops holding and answers the signal held. */
export function holdSignals() {
  let held;
  const onSignal = (signal) => {
    if (held === undefined) {
      held = signal;
      return;
    }
    stop();
    process.kill(process.pid, signal);
  };
  const handlers = signals.map((signal) => [signal, () => onSignal(signal)]);
  function stop() {
    for (const [signal, handler] of handlers) process.off(signal, handler);
    delete process[holdKey];
  }
  for (const [signal, handler] of handlers) process.on(signal, handler);
  process[holdKey] = {
    get signal() {
      return held;
    },
    take() {
      stop();
      return held;
    },
  };
}

/** Whether a signal is held now: one reached conform before it could act on it. */
export function holdsSignal() {
  return process[holdKey]?.signal !== undefined;
}

/** Stops holding; a signal held that no run took ends the process now, by the signal, as it would have. */
export function releaseHeldSignal() {
  const signal = process[holdKey]?.take();
  if (signal !== undefined) process.kill(process.pid, signal);
}
