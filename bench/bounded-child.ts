/**
 * One Node child of the bench, bounded: the project's Node runs `args` from the repository's root, its stderr is
 * kept (the first 64 KB) or passed through, and it is killed (SIGKILL) when it outlives `timeoutMs`.
 * @module
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const keptStderrChars = 65_536;

export interface BoundedChildRun {
  /** Null when the child was killed by a signal (the timeout's among them). */
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** The first 64 KB of stderr; empty when it was passed through. */
  readonly stderr: string;
}

export function runBoundedChild(
  args: readonly string[],
  options: {
    readonly timeoutMs: number;
    readonly env?: NodeJS.ProcessEnv;
    readonly stderr?: "keep" | "inherit";
  },
): Promise<BoundedChildRun> {
  return new Promise((resolve, reject) => {
    let stderr = "";
    let timedOut = false;
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: ["ignore", "ignore", options.stderr === "inherit" ? "inherit" : "pipe"],
      env: { ...process.env, ...options.env, NO_COLOR: "1" },
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < keptStderrChars) stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, timedOut, stderr });
    });
  });
}
