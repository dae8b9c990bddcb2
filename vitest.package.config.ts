import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/** `npm run test:package`: the package as a user installs it (test/package/), left out of `npm test`. */
export default defineConfig({
  test: { ...base.test, include: ["test/package/**/*.test.ts"], exclude: configDefaults.exclude },
});
