/**
 * bin/conform.js's guard, run before any TypeScript loads: a Node older than 22.19 gets one line naming the Node
 * it needs and how to run conform instead (exit 2), and under `npm run` relative paths mean the caller's folder.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callerFolder, nodeVersionProblem } from "../../bin/node-guard.js";

describe("the Node version guard", () => {
  it.each([
    ["v20.20.2", true],
    ["v22.18.0", true],
    ["v18.0.0", true],
    ["v22.19.0", false],
    ["v22.20.1", false],
    ["v24.21.0", false],
    ["v26.0.0", false],
  ])("%s is refused: %s", (version, refused) => {
    const problem = nodeVersionProblem(version);
    expect(problem !== undefined).toBe(refused);
    if (problem) {
      expect(problem).toContain(`this is Node ${version.slice(1)}`);
      expect(problem).toMatch(/needs Node 22\.19 or newer.*npm run conform --.*npx conform/);
      expect(problem).not.toContain("\n");
    }
  });

  it.each([
    [{ npm_lifecycle_event: "conform", INIT_CWD: "/home/me/suites" }, "/home/me/suites"],
    [{ npm_lifecycle_event: "start", INIT_CWD: "/work" }, "/work"],
    [{ INIT_CWD: "/home/me" }, undefined],
    [{}, undefined],
  ])("under npm run (%j) the caller's folder is %s", (env, folder) => {
    expect(callerFolder(env)).toBe(folder);
  });

  // The machine's own Node, where it is older than the project's: the real file, not a faked version.
  const systemNode = ["/usr/bin/node", "/usr/local/bin/node"].find((path) => existsSync(path));
  const old = systemNode
    ? spawnSync(systemNode, ["-p", "process.version"], { encoding: "utf8" }).stdout.trim()
    : "";
  it.runIf(old !== "" && nodeVersionProblem(old) !== undefined)(
    `bin/conform.js under the machine's ${old || "Node"} exits 2 with the guard's one line`,
    () => {
      const result = spawnSync(systemNode!, [join(import.meta.dirname, "../../bin/conform.js"), "--help"], {
        encoding: "utf8",
      });
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(`${nodeVersionProblem(old)}\n`);
    },
  );
});
