import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Servers bind loopback and suites do real I/O: give slow shared CI machines room.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
