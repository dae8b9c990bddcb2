/** `conform proxy` in a child process, as the proxy's CLI tests start it. */
import { type ChildProcess, spawn } from "node:child_process";
import { conformBin } from "./cli-runs.ts";

export interface ProxyChild {
  readonly child: ChildProcess;
  /** The proxy's URL, once it says it listens (rejects when it exits first). */
  readonly url: Promise<string>;
  readonly exited: Promise<number | null>;
  readonly output: () => string;
}

/** Starts `conform proxy --target <target> --port 0 --report-dir <reportDir> ...more`. */
export function startProxy(
  target: string,
  reportDir: string,
  more: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): ProxyChild {
  const child: ChildProcess = spawn(
    process.execPath,
    [conformBin, "proxy", "--target", target, "--port", "0", "--report-dir", reportDir, ...more],
    { stdio: ["ignore", "pipe", "pipe"], env },
  );
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (\S+),/.exec(output);
      if (found?.[1]) resolve(found[1]);
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    exited.then(() => reject(new Error(`the proxy exited: ${output}`)));
  });
  return { child, url, exited, output: () => output };
}
