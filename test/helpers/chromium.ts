/**
 * Headless Chromium for every browser test, driven by playwright-core, by one rule:
 * - `CONFORM_CHROMIUM` names the browser when set: `npm` (the one the npm install brings), `system`
 *   (`/usr/bin/chromium`) or a path to an executable;
 * - otherwise the system's `/usr/bin/chromium` where one is present, else the npm one.
 * The npm one is `@sparticuz/chromium` (a devDependency): a headless Chromium shipped brotli-packed inside the
 * package, with the NSS and expat libraries it needs (built for Amazon Linux, they load on Debian too) and a font.
 * It is unpacked once into `node_modules/.cache/` and launched with those libraries on `LD_LIBRARY_PATH`, so a bare
 * machine needs nothing installed by hand. A browser that cannot be found or started fails the test, loudly;
 * browser tests are never skipped.
 */
import { execFile } from "node:child_process";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createBrotliDecompress } from "node:zlib";
import { type Browser, chromium } from "playwright-core";

const execFileAsync = promisify(execFile);
const systemChromium = "/usr/bin/chromium";
const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Which browser the rule picks: `npm`, `system` or a path, from `CONFORM_CHROMIUM` and what is on the machine. */
export function chooseChromium(
  setting: string | undefined,
  systemPresent: boolean,
): { kind: "npm" } | { kind: "path"; path: string } {
  if (setting === "npm") return { kind: "npm" };
  if (setting === "system") return { kind: "path", path: systemChromium };
  if (setting !== undefined && setting !== "") return { kind: "path", path: setting };
  return systemPresent ? { kind: "path", path: systemChromium } : { kind: "npm" };
}

interface Unpacked {
  executablePath: string;
  env: Record<string, string>;
}

/** Unpacks a brotli-packed file (`x.br`) or tarball (`x.tar.br`, through the system's tar) into `folder`. */
async function unpack(packed: string, folder: string): Promise<void> {
  const name = packed.slice(packed.lastIndexOf("/") + 1, -".br".length);
  if (!packed.endsWith(".tar.br")) {
    await pipeline(
      createReadStream(packed),
      createBrotliDecompress(),
      createWriteStream(join(folder, name), { mode: 0o755 }),
    );
    return;
  }
  // Decompressed to a file first, then given to tar: piped into tar's stdin, tar may end at the archive's end
  // marker before the padding after it is written, and the pipe then breaks ("Premature close").
  const archive = join(folder, `.${name}`);
  await pipeline(createReadStream(packed), createBrotliDecompress(), createWriteStream(archive));
  try {
    await execFileAsync("tar", ["-x", "-f", archive, "-C", folder]);
  } catch (error) {
    throw new Error(`tar could not unpack ${packed}: ${(error as Error).message}`);
  } finally {
    await rm(archive, { force: true });
  }
}

let npmChromium: Promise<Unpacked> | undefined;

/** The npm Chromium, unpacked once per version into node_modules/.cache (atomically: concurrent test files race). */
function unpackNpmChromium(): Promise<Unpacked> {
  npmChromium ??= (async () => {
    const require = createRequire(join(repositoryRoot, "package.json"));
    let entry: string;
    try {
      entry = require.resolve("@sparticuz/chromium"); // <package>/build/index.js (its package.json is not exported)
    } catch (error) {
      throw new Error(
        `no browser: @sparticuz/chromium cannot be found (run npm ci) and ${systemChromium} is absent (${error})`,
      );
    }
    const packageFolder = dirname(dirname(entry));
    const { version } = JSON.parse(await readFile(join(packageFolder, "package.json"), "utf8")) as {
      version: string;
    };
    const bin = join(packageFolder, "bin");
    const cache = join(repositoryRoot, "node_modules", ".cache", `conform-chromium-${version}`);
    const result: Unpacked = {
      executablePath: join(cache, "chromium"),
      env: {
        LD_LIBRARY_PATH: [join(cache, "lib"), process.env.LD_LIBRARY_PATH].filter(Boolean).join(":"),
        FONTCONFIG_PATH: join(cache, "fonts-config"),
      },
    };
    if (existsSync(result.executablePath)) return result;
    const staging = `${cache}.${process.pid}.${Date.now()}`;
    await mkdir(join(staging, "fonts-config"), { recursive: true });
    // The swiftshader libraries go beside the binary, where Chromium looks for them.
    await Promise.all([
      unpack(join(bin, "chromium.br"), staging),
      unpack(join(bin, "swiftshader.tar.br"), staging),
      unpack(join(bin, "al2023.tar.br"), staging),
      unpack(join(bin, "fonts.tar.br"), join(staging, "fonts-config")),
    ]);
    // Its fonts.conf names Lambda's folders: point fontconfig at the font beside it instead.
    await writeFile(
      join(staging, "fonts-config", "fonts.conf"),
      '<?xml version="1.0"?>\n<fontconfig><dir prefix="relative">fonts</dir></fontconfig>\n',
    );
    try {
      await rename(staging, cache);
    } catch (error) {
      // Another test file unpacked it first: use theirs.
      await rm(staging, { recursive: true, force: true });
      if (!existsSync(result.executablePath)) throw error;
    }
    return result;
  })();
  return npmChromium;
}

/** The browser the rule picks, with its environment: what every browser test launches. */
export async function resolveChromium(): Promise<Unpacked> {
  const choice = chooseChromium(process.env.CONFORM_CHROMIUM, existsSync(systemChromium));
  if (choice.kind === "npm") return unpackNpmChromium();
  if (!existsSync(choice.path)) {
    throw new Error(
      `no Chromium at ${choice.path} (CONFORM_CHROMIUM=${process.env.CONFORM_CHROMIUM ?? ""}): ` +
        "unset it to use the npm one (@sparticuz/chromium)",
    );
  }
  return { executablePath: choice.path, env: {} };
}

/** Launches headless Chromium with the flags this sandbox needs (no background network, no sandbox as root). */
export async function launchChromium(): Promise<Browser> {
  const { executablePath, env } = await resolveChromium();
  return chromium.launch({
    executablePath,
    env: { ...process.env, ...env } as Record<string, string>,
    args: [
      "--headless",
      "--no-sandbox",
      "--no-zygote",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
