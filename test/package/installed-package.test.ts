/**
 * The package as a user installs it. `npm pack` of the checkout is installed into an empty project in the temp
 * directory, which cannot see the checkout, under each Node of CONFORM_PACKAGE_NODES (paths of node binaries,
 * ":"-separated; default: this Node). There: the tarball holds the build and no test; `npx conform --version`;
 * `npx conform run` against the embedded server with the README's TypeScript suite saved in the project, importing
 * the package by name (its types resolve); `serve` stopped through its npx wrapper; `verify` of a recorded run;
 * and the README's GitHub Actions example step by step (`npm ci`, the shards, merge-reports) against a reference
 * server. `.ci/run` runs this file (`npm run test:package`); `npm test` leaves it out: it packs and installs from
 * the npm cache or registry, a minute or two.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createReferenceServer, type ReferenceServer } from "../../src/reference/server.ts";
import { embeddedRateLimits } from "../../src/runner/target.ts";

const checkout = join(import.meta.dirname, "..", "..");
const readme = readFileSync(join(checkout, "README.md"), "utf8");
const manifest = JSON.parse(readFileSync(join(checkout, "package.json"), "utf8")) as {
  name: string;
  version: string;
};
const nodes = (process.env.CONFORM_PACKAGE_NODES ?? process.execPath).split(delimiter).filter(Boolean);
const folder = mkdtempSync(join(tmpdir(), "conform-package-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A README block after its marker comment. */
function readmeBlock(marker: string): string {
  const block = new RegExp(`<!-- ${marker} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``).exec(readme)?.[1];
  if (block === undefined) throw new Error(`the README has no block marked ${marker}`);
  return block;
}

/** A person's shell with `node` on the PATH first: none of the npm variables of the `npm run` running this file. */
function shellEnv(node: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_|INIT_CWD$)/i.test(name)),
  );
  return { ...env, PATH: `${dirname(node)}${delimiter}${env.PATH ?? ""}`, NO_COLOR: "1", ...extra };
}

/** Runs a bash command line; a non-zero exit fails the test with its output. */
function sh(command: string, cwd: string, env: NodeJS.ProcessEnv): string {
  const result = spawnSync("bash", ["-euo", "pipefail", "-c", command], {
    cwd,
    env,
    encoding: "utf8",
    timeout: 300_000,
  });
  expect(result.status, `${command}\n${result.stdout}${result.stderr}`).toBe(0);
  return result.stdout;
}

/** The same without blocking this process, where a test's reference server answers. */
async function shAsync(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn("bash", ["-euo", "pipefail", "-c", command], { cwd, env, timeout: 300_000 });
  let output = "";
  for (const stream of [child.stdout, child.stderr])
    stream.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
  const [code] = await once(child, "exit");
  expect(code, `${command}\n${output}`).toBe(0);
  return output;
}

let tarball = "";

beforeAll(() => {
  const packed = sh(`npm pack --silent --pack-destination ${folder}`, checkout, shellEnv(process.execPath));
  tarball = join(folder, packed.trim().split("\n").at(-1)!);
}, 300_000);

/** An empty project that depends on the tarball, with the README's suite in it, installed under `node`. */
function installedProject(node: string): string {
  const project = mkdtempSync(join(folder, "project-"));
  const dependency = { [manifest.name]: `file:${tarball}` };
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify({ name: "user-project", private: true, type: "module", devDependencies: dependency }, null, 2)}\n`,
  );
  mkdirSync(join(project, "conformance"));
  writeFileSync(
    join(project, "conformance", "my-regions.suite.ts"),
    `${readmeBlock("readme-test: file my-regions.suite.ts")}\n`,
  );
  sh("npm install --no-audit --no-fund --prefer-offline", project, shellEnv(node));
  return project;
}

describe("the packed tarball", () => {
  it("holds the build with its types, the description, the docs and the licence, and no test", () => {
    const files = sh(`tar tzf ${tarball}`, folder, shellEnv(process.execPath)).split("\n").filter(Boolean);
    for (const needed of [
      "package/bin/conform.js",
      "package/dist/src/cli/main.js",
      "package/dist/src/index.js",
      "package/dist/src/index.d.ts",
      "package/specs/cloud-api-v4.yaml",
      "package/README.md",
      "package/LICENSE",
    ])
      expect(files).toContain(needed);
    expect(files.some((file) => /^package\/dist\/suites\/.*\.suite\.js$/.test(file))).toBe(true);
    expect(
      files.filter((file) => /(^package\/test\/|\.test\.[jt]s$|^package\/src\/.*\.ts$)/.test(file)),
    ).toEqual([]);
  });
});

describe.each(nodes)("installed under %s", (node) => {
  let project = "";
  beforeAll(() => {
    project = installedProject(node);
  }, 300_000);

  it("npx conform --version prints the package's version", () => {
    expect(sh("npx conform --version", project, shellEnv(node)).trim()).toBe(manifest.version);
  });

  it("npx conform run: the bundled suites and the project's TypeScript suite, against the embedded server", () => {
    const out = sh(
      "npx conform run --suite-path conformance --reporter console,json --report-dir reports",
      project,
      shellEnv(node),
    );
    expect(out).toMatch(/✓ my-regions /);
    expect(out).toMatch(/✓ PASSED/);
  }, 180_000);

  it("npx conform verify judges a recorded run again", () => {
    // Read-only suites: a recording of writers beside list walkers shows lists changing between pages.
    const record = "npx conform run --suite catalogue --suite lists --har run.har --report-dir recorded";
    sh(record, project, shellEnv(node));
    expect(sh("npx conform verify run.har --report-dir verified", project, shellEnv(node))).toMatch(
      /✓ PASSED/,
    );
  }, 180_000);

  it("npx conform serve answers, and stops with its wrapper, its temp folder gone", async () => {
    const served = spawn("npx", ["conform", "serve", "--http"], {
      cwd: project,
      env: shellEnv(node),
      detached: true,
    });
    try {
      const banner = await untilPrinted(served, "Ctrl-C stops it.");
      const baseUrl = /base URL:\s+(\S+)/.exec(banner)![1]!;
      const config = /--config (\S+)/.exec(banner)![1]!;
      expect(banner).toContain("npx conform run --base-url");
      expect((await fetch(`${baseUrl}/regions`)).status).toBe(200);
      served.kill("SIGTERM");
      await Promise.all([once(served.stdout!, "close"), once(served, "exit")]);
      await untilGone(dirname(config));
    } finally {
      if (served.exitCode === null) served.kill("SIGKILL");
    }
  }, 60_000);
});

/** Resolves with the child's output once it prints `text` (bounded: 30 s). */
function untilPrinted(child: ChildProcess, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`not printed in 30 s: ${text}\n${output}`)), 30_000);
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      if (output.includes(text)) {
        clearTimeout(timer);
        resolve(output);
      }
    });
  });
}

/** Waits (bounded: 10 s) until `path` no longer exists; conform ends a moment after its wrapper. */
async function untilGone(path: string): Promise<void> {
  for (let i = 0; i < 200 && existsSync(path); i += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(existsSync(path), path).toBe(false);
}

describe("the README's TypeScript suite", () => {
  it("type-checks against the installed package's declarations", () => {
    const project = readdirSync(folder).find((name) => name.startsWith("project-"));
    expect(project).toBeDefined();
    const at = join(folder, project!);
    const options = {
      module: "nodenext",
      target: "es2024",
      strict: true,
      noEmit: true,
      allowImportingTsExtensions: true,
      types: [],
    };
    writeFileSync(
      join(at, "tsconfig.json"),
      JSON.stringify({ compilerOptions: options, include: ["conformance"] }),
    );
    sh(
      `node ${join(checkout, "node_modules", "typescript", "bin", "tsc")} -p tsconfig.json`,
      at,
      shellEnv(process.execPath),
    );
  });
});

interface WorkflowStep {
  readonly uses?: string;
  readonly run?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, string>;
}

/** `${{ expression }}` replaced from `context`; an expression it lacks fails the test. */
function expand(text: string, context: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_whole, expression: string) => {
    const value = context[expression];
    if (value === undefined)
      throw new Error(`the CI example uses \${{ ${expression} }}, which this test does not give`);
    return value;
  });
}

/**
 * Runs one job of the workflow in `project` as a runner would: `run` steps by bash, artifacts copied to and from
 * `artifacts`; checkout and setup-node are the project and the Node already there. A step it does not know fails.
 */
async function runJob(
  steps: readonly WorkflowStep[],
  project: string,
  context: Record<string, string>,
  env: NodeJS.ProcessEnv,
) {
  const artifacts = join(project, "..", "artifacts");
  for (const step of steps) {
    const uses = step.uses?.split("@")[0];
    const given = Object.fromEntries(
      Object.entries(step.with ?? {}).map(([key, value]) => [key, expand(String(value), context)]),
    );
    if (step.run !== undefined) {
      const stepEnv = Object.fromEntries(
        Object.entries(step.env ?? {}).map(([key, value]) => [key, expand(value, context)]),
      );
      await shAsync(expand(step.run, context), project, { ...env, ...stepEnv });
    } else if (uses === "actions/checkout" || uses === "actions/setup-node") continue;
    else if (uses === "actions/upload-artifact")
      cpSync(join(project, given.path!), join(artifacts, given.name!), { recursive: true });
    else if (uses === "actions/download-artifact") {
      const pattern = new RegExp(`^${given.pattern!.replaceAll("*", ".*")}$`);
      for (const name of readdirSync(artifacts).filter((artifact) => pattern.test(artifact)))
        cpSync(join(artifacts, name), join(project, given.path!, name), { recursive: true });
    } else if (uses === "mikepenz/action-junit-report")
      expect(existsSync(join(project, given.report_paths!))).toBe(true);
    else throw new Error(`the CI example has a step this test does not run: ${step.uses}`);
  }
}

describe("the README's GitHub Actions example", () => {
  let target: ReferenceServer | undefined;
  afterAll(() => target?.close());

  it("runs step by step in a project that installs conform as a dependency: npm ci, four shards, merge-reports", async () => {
    // biome-ignore lint/suspicious/noExplicitAny: a workflow read as data
    const workflow: any = parse(readmeBlock("ci-example: github-actions"));
    const node = nodes[0]!;
    const project = installedProject(node);
    // The implementation under test: a reference server, its own token's limits as loose as the embedded one's.
    target = await createReferenceServer({
      http: true,
      token: "readme-ci-example-token",
      ...embeddedRateLimits,
    });
    const summary = join(project, "..", "step-summary.md");
    const env = shellEnv(node, { GITHUB_STEP_SUMMARY: summary, CONFORM_TOKEN: target.token });
    // The committed baseline the example names: a report of the target.
    await shAsync(
      `npx conform run --base-url ${target.baseUrl} --token-env CONFORM_TOKEN --tag read-only --reporter json --report-dir baseline-run && cp baseline-run/latest/report.json conformance/baseline.json`,
      project,
      env,
    );
    const context = {
      "secrets.CONFORM_TOKEN": target.token,
      "vars.CONFORM_BASE_URL": target.baseUrl,
      "github.run_number": "1",
    };
    for (const shard of workflow.jobs.shard.strategy.matrix.shard as number[])
      await runJob(workflow.jobs.shard.steps, project, { ...context, "matrix.shard": String(shard) }, env);
    await runJob(workflow.jobs.merge.steps, project, context, env);
    const merged = JSON.parse(readFileSync(join(project, "merged", "latest", "report.json"), "utf8"));
    expect(merged).toMatchObject({ complete: true, exitCode: 0 });
    expect(readFileSync(summary, "utf8")).toMatch(/PASSED|passed/);
  }, 600_000);
});
