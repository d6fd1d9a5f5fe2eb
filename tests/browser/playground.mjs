// Drives the relang playground in Debian's headless chromium and prints what it saw.
//
// Usage: node playground.mjs BASE_URL SCREENSHOT_DIR
//   BASE_URL        a running relang-server, e.g. http://127.0.0.1:8080/
//   SCREENSHOT_DIR  where the PNG screenshots go (created if missing)
//
// It checks what only a browser can (the page runs, renders answers, pages, marks errors,
// restores a shared link, fits a phone's width) and prints one JSON line with the texts it
// read, so the caller can compare them with the API's own answers. Any page error, console
// error (a Content-Security-Policy violation included) or failed step exits non-zero.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [baseUrl, shotDir] = process.argv.slice(2);
if (!baseUrl || !shotDir) {
  console.error("usage: node playground.mjs BASE_URL SCREENSHOT_DIR");
  process.exit(2);
}
mkdirSync(shotDir, { recursive: true });

const profile = mkdtempSync(join(tmpdir(), "relang-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
  viewport: { width: 1200, height: 860 },
});
const problems = [];
const report = { problems };

try {
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => {
    // The syntax-error step's 400 is expected; chromium logs every non-2xx load.
    const expected = msg.text().includes("status of 400 (Bad Request)");
    if (msg.type() === "error" && !expected) problems.push(`console error: ${msg.text()}`);
  });

  await page.goto(baseUrl);
  report.title = await page.title();

  // Intersection, run with Enter from the second term's field.
  await page.fill("#term-1", "(abc|de){2}");
  await page.fill("#term-2", "de.*");
  await page.selectOption("#operation", "compute/intersection");
  await page.selectOption("#format", "regex");
  await page.press("#term-2", "Enter");
  const resultTerm = page.locator("#result .result-term");
  await resultTerm.waitFor();
  report.intersection = await resultTerm.textContent();
  await page.locator("#result .sample li").first().waitFor();
  report.sample = await page.locator("#result .sample li").allTextContents();
  await page.locator("#drawing svg").waitFor();
  report.drawing = {
    states: await page.locator("#drawing .state").count(),
    accepting: await page.locator("#drawing .state").filter({ has: page.locator("circle + circle") }).count(),
    edgeLabels: await page.locator("#drawing .edge text").allTextContents(),
  };
  report.dot = await page.locator("#dot").textContent();
  report.fragment = new URL(page.url()).hash;
  await page.screenshot({ path: join(shotDir, "intersection.png") });

  // A shared link restores the form and runs it again.
  const shared = await context.newPage();
  shared.on("pageerror", (err) => problems.push(`shared page error: ${err.message}`));
  await shared.goto(page.url());
  await shared.locator("#result .result-term").waitFor();
  report.shared = {
    terms: [await shared.inputValue("#term-1"), await shared.inputValue("#term-2")],
    operation: await shared.inputValue("#operation"),
    result: await shared.locator("#result .result-term").textContent(),
  };
  await shared.close();

  // Generate strings, then the next page.
  await page.selectOption("#operation", "generate/strings");
  await page.fill("#term-1", "[a-z]{2}");
  await page.fill("#limit", "5");
  await page.click("#run");
  const strings = page.locator("#result .strings li");
  await page.locator("#page-info", { hasText: "strings 1–5" }).waitFor();
  report.firstPage = await strings.allTextContents();
  await page.click("#next-page");
  await page.locator("#page-info", { hasText: "strings 6–10" }).waitFor();
  report.secondPage = await strings.allTextContents();
  await page.screenshot({ path: join(shotDir, "generate.png") });

  // A syntax error in the second term: shown inline, with its part of the pattern marked.
  await page.selectOption("#operation", "compute/union");
  await page.fill("#term-1", "abc");
  await page.fill("#term-2", "de(?>x)");
  await page.press("#term-1", "Enter");
  await page.locator("#error:not([hidden])").waitFor();
  report.error = {
    code: await page.locator("#error .error-code").textContent(),
    message: await page.locator("#error .error-message").textContent(),
    marked: await page.locator(".term:nth-child(2) .term-mark mark").textContent(),
    invalid: await page.getAttribute("#term-2", "aria-invalid"),
  };
  await page.screenshot({ path: join(shotDir, "syntax-error.png") });

  // A phone's width: one column, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.selectOption("#operation", "compute/intersection");
  await page.fill("#term-1", "(abc|de){2}");
  await page.fill("#term-2", "de.*");
  await page.press("#term-2", "Enter");
  await resultTerm.waitFor();
  report.narrow = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  await page.screenshot({ path: join(shotDir, "narrow.png"), fullPage: true });
} catch (err) {
  problems.push(`step failed: ${err.message}`);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}

console.log(JSON.stringify(report));
process.exit(problems.length ? 1 : 0);
