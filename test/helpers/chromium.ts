/**
 * Headless Chromium for browser tests: Debian's `/usr/bin/chromium` driven by playwright-core (`.ci/run` installs
 * it). Off CI a machine without it skips the browser tests, saying why; on CI a missing browser is a failure,
 * never a silent skip.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** True when browser tests must be skipped: no browser here and not on CI. */
export const skipBrowserTests = !existsSync(chromiumPath) && !process.env.CI;

if (skipBrowserTests) {
  process.stderr.write(
    `browser tests skipped: no Chromium at ${chromiumPath} (install Debian's chromium package)\n`,
  );
}

/** Launches headless Chromium with the flags this sandbox needs (no background network, no sandbox as root). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
