/** Runs the `conform` CLI in-process, capturing what it prints and its exit code. */
import { vi } from "vitest";
import { main } from "../../src/cli/main.ts";

export interface CliResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export async function cli(args: readonly string[]): Promise<CliResult> {
  let out = "";
  let err = "";
  const stdout = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  try {
    const code = await main(args);
    return { code, out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}
