import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Servers bind loopback and suites do real I/O: give slow shared CI machines room.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // The browser tests' Chromium, unpacked once before the files start (test/global-setup.ts).
    globalSetup: ["test/global-setup.ts"],
  },
});
