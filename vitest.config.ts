import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The installed package's test packs and installs (npm cache or registry): `npm run test:package`, run by CI.
    exclude: [...configDefaults.exclude, "test/package/**"],
    // Servers bind loopback and suites do real I/O: give slow shared CI machines room.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // The run's own temp directory, and the browser tests' Chromium, unpacked once before the files start.
    globalSetup: ["test/global-setup.ts"],
  },
});
