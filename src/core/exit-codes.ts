/** The process exit codes of every command (docs/contracts.md). */
export const ExitCode = Object.freeze({
  /** Every check passed. */
  ok: 0,
  /** At least one check failed. */
  checkFailed: 1,
  /** The toolkit could not do its job: bad arguments or config, spec will not load, target unreachable, nothing ran. */
  toolkitError: 2,
  /** Interrupted by SIGINT (Ctrl-C), after cleanup: 128 + 2, as a shell reports a process SIGINT ended. */
  interrupted: 130,
  /** Stopped by SIGTERM (a cancelled CI job, `timeout`, `docker stop`), after cleanup: 128 + 15. */
  terminated: 143,
} as const);

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** The signals a run handles, and the exit code each ends it with. */
export const signalExitCodes = Object.freeze({
  SIGINT: ExitCode.interrupted,
  SIGTERM: ExitCode.terminated,
} as const);

export type HandledSignal = keyof typeof signalExitCodes;
