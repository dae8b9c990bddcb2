// Temporary measurement script (not committed): the generic layer's suite alone against every named fault.
import { runFaultMatrix } from "./src/fault-score/score.ts";
import { runConfigDefaults } from "./src/runner/config.ts";
import { bundledSpecPath } from "./src/spec/bundled.ts";

const matrix = await runFaultMatrix({
  runId: "generic-faults",
  config: {
    ...runConfigDefaults,
    specPath: bundledSpecPath,
    seed: 1,
    concurrency: 4,
    suites: ["operations"],
    reportDir: "/tmp/i28/faults-reports",
  },
  full: true,
  concurrency: 2,
  toolVersion: "dev",
  signal: new AbortController().signal,
  onRow: (row, done, total) =>
    process.stderr.write(
      `[${done}/${total}] ${row.caughtBy.suites.length ? "caught " : "escaped"} ${row.id} ${row.caughtBy.checks.join(",")}\n`,
    ),
});
console.log(
  JSON.stringify(
    { clean: matrix.clean, rows: matrix.rows.map((r) => ({ id: r.id, caughtBy: r.caughtBy })) },
    null,
    1,
  ),
);
