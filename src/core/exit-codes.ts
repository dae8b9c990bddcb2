/** The process exit codes of every command (ARCHITECTURE.md "Contracts worth keeping"). */
export const ExitCode = Object.freeze({
  /** Every check passed. */
  ok: 0,
  /** At least one check failed. */
  checkFailed: 1,
  /** The toolkit could not do its job: bad arguments or config, spec will not load, target unreachable, nothing ran. */
  toolkitError: 2,
  /** Interrupted (SIGINT), after cleanup. */
  interrupted: 130,
} as const);

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
