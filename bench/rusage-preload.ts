/**
 * Preloaded into the child of section 5 (`node --import bench/rusage-preload.ts bin/conform.js run ...`): when
 * the process exits, writes its own resource usage to the file named by `CONFORM_BENCH_RUSAGE_FILE`. maxRSS is
 * the kernel's high-water mark of the process's resident memory (getrusage), so no sampling can miss the peak.
 * @module
 */
import { writeFileSync } from "node:fs";

const file = process.env.CONFORM_BENCH_RUSAGE_FILE;
if (file) {
  process.on("exit", (code) => {
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({
        exitCode: code,
        maxRssBytes: usage.maxRSS * 1024,
        userCpuUs: usage.userCPUTime,
        systemCpuUs: usage.systemCPUTime,
        uptimeMs: process.uptime() * 1000,
      }),
    );
  });
}
