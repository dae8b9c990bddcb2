/**
 * Before any test file starts: the browser the rule picks is made ready once (the npm Chromium unpacked into
 * node_modules/.cache). Unpacked by the first browser test instead, under the load of every test file starting at
 * once on a 2-core machine, it could outlast that test's timeout and be cut off half-way (`tar: Unexpected EOF`).
 */
import { resolveChromium } from "./helpers/chromium.ts";

export default async function setup(): Promise<void> {
  await resolveChromium();
}
