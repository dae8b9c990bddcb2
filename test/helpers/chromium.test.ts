/**
 * The one rule every browser test follows to find Chromium (test/helpers/chromium.ts), and the npm one starting
 * here: it is what a bare machine uses.
 */
import { describe, expect, it } from "vitest";
import { chooseChromium, launchChromium } from "./chromium.ts";

describe("which Chromium the browser tests use", () => {
  it.each([
    [undefined, true, { kind: "path", path: "/usr/bin/chromium" }],
    [undefined, false, { kind: "npm" }],
    ["", false, { kind: "npm" }],
    ["npm", true, { kind: "npm" }],
    ["system", false, { kind: "path", path: "/usr/bin/chromium" }],
    ["/opt/chrome/chrome", true, { kind: "path", path: "/opt/chrome/chrome" }],
  ])("CONFORM_CHROMIUM=%s, system one present: %s → %o", (setting, present, expected) => {
    expect(chooseChromium(setting, present)).toEqual(expected);
  });

  it("the npm one (@sparticuz/chromium) starts here with its own libraries and renders a page", async () => {
    const before = process.env.CONFORM_CHROMIUM;
    process.env.CONFORM_CHROMIUM = "npm";
    try {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.setContent(
          "<p id=out></p><script>document.getElementById('out').textContent = 'ran'</script>",
        );
        expect(await page.locator("#out").textContent()).toBe("ran");
      } finally {
        await browser.close();
      }
    } finally {
      if (before === undefined) delete process.env.CONFORM_CHROMIUM;
      else process.env.CONFORM_CHROMIUM = before;
    }
  });
});
