/**
 * Preloaded into the `conform` children of sections 4 and 5 (`node --import bench/rusage-preload.ts
 * bin/conform.js ...`): when the process exits, writes its own resource usage to the file named by
 * `CONFORM_BENCH_RUSAGE_FILE`. maxRSS is the kernel's high-water mark of the process's resident memory
 * (getrusage), so no sampling can miss the peak. With `CONFORM_BENCH_SAMPLE_MS`, it also samples RSS and heap
 * use at that interval (an unref'd timer: it never keeps the process alive), for the memory timeline.
 * @module
 */
import { writeFileSync } from "node:fs";

const file = process.env.CONFORM_BENCH_RUSAGE_FILE;
const sampleMs = Number(process.env.CONFORM_BENCH_SAMPLE_MS ?? 0);
const samples: { atMs: number; rssBytes: number; heapUsedBytes: number }[] = [];

if (file) {
  if (sampleMs > 0) {
    setInterval(() => {
      const memory = process.memoryUsage();
      samples.push({ atMs: process.uptime() * 1000, rssBytes: memory.rss, heapUsedBytes: memory.heapUsed });
    }, sampleMs).unref();
  }
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
        samples,
      }),
    );
  });
}
