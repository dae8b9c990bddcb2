/**
 * Signals through wrappers. `npm run`, `npx` and a shell that does not `exec` end at once on a SIGTERM (npm passes
 * it to its shell, which dies of it), leaving conform orphaned, still writing to its target, its reports unwritten.
 * So the end of the process that started conform is taken as conform's own SIGTERM: the same handlers run (cases
 * interrupted, cleanup, reports, exit 143; `proxy` writes its report), or, where none listens, Node's default end.
 * Unless a SIGINT or SIGTERM reached conform first: Ctrl-C reaches the whole process group, and the wrapper's end
 * that follows is no second signal.
 * @module
 */

/** How often the parent is looked at: a syscall, cheap; a wrapper's end is noticed within this. */
const pollMs = 200;

const signals = ["SIGINT", "SIGTERM"] as const;

/**
 * Watches the parent process for this process's life; answers the function that stops watching. `parent` is the
 * parent as the process first saw it (bin/conform.js reads it before loading anything): a wrapper ended while
 * conform was still loading has left it orphaned already, and the parent then is init.
 */
export function endWithParent(parent: number = process.ppid): () => void {
  // Started by init, or a container's first process: there is no wrapper to outlive.
  if (parent <= 1) return () => {};
  let watching = true;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    // A signal to the whole group (`timeout`, a CI runner) ends the wrapper and reaches conform too, but may not be
    // dispatched yet: its listeners run in the poll phase, after this timer and before the immediates. Then it
    // reached conform first, and the wrapper's end is no second signal.
    setImmediate(() => {
      if (!watching) return;
      stop();
      process.kill(process.pid, "SIGTERM");
    });
  }, pollMs);
  timer.unref();
  const seen = (signal: NodeJS.Signals) => {
    stop();
    // This listener was the only one: the signal ends the process, as it would have without it.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  for (const signal of signals) process.on(signal, seen);
  function stop(): void {
    watching = false;
    clearInterval(timer);
    for (const signal of signals) process.off(signal, seen);
  }
  return stop;
}
