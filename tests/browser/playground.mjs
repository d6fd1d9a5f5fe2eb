// Drives the relang playground in Debian's headless chromium and prints what it saw.
//
// Usage: node playground.mjs BASE_URL SCREENSHOT_DIR [AUTH_URL TOKEN]
//   BASE_URL        a running relang-server, e.g. http://127.0.0.1:8080/
//   SCREENSHOT_DIR  where the PNG screenshots go (created if missing)
//   AUTH_URL TOKEN  a server with a tokens file, and a token it accepts
//
// It checks what only a browser can (the page runs, renders answers, pages, marks errors,
// restores a shared link, fits a phone's width, draws a large automaton whole, shows a
// running state, tests strings as they are typed, sends a token, exports the drawing) and
// prints one JSON line with the texts it read, so the caller can compare them with the
// API's own answers. Any page error, console error (a Content-Security-Policy violation
// included) or failed step exits non-zero.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [baseUrl, shotDir, authUrl, token] = process.argv.slice(2);
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
  viewport: { width: 1280, height: 860 },
  acceptDownloads: true,
});

// The 32-state minimal DFA of `(a|b)*a(a|b){4}`, as a shared link.
const LARGE = "#op=analyze%2Fdot&r=%28a%7Cb%29*a%28a%7Cb%29%7B4%7D";

// The intersection the page opens with, as a shared link.
const INTERSECTION = "#op=compute%2Fintersection&r=%28abc%7Cde%29%7B2%7D&r=de.*&format=regex";

// Whether every part of the drawing lies inside its box, with nothing to scroll to.
function drawingFits() {
  const drawing = document.querySelector("#drawing");
  const box = drawing.getBoundingClientRect();
  const parts = [...drawing.querySelectorAll(".state, .edge, .start-arrow")];
  const outside = parts.filter((part) => {
    const r = part.getBoundingClientRect();
    return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5;
  });
  return {
    states: drawing.querySelectorAll(".state").length,
    outside: outside.length,
    scrolls: drawing.scrollWidth > drawing.clientWidth || drawing.scrollHeight > drawing.clientHeight,
    inViewport: box.left >= 0 && box.right <= window.innerWidth,
    startArrows: drawing.querySelectorAll(".start-arrow").length,
  };
}
const problems = [];
const report = { problems };
// Each distinct problem once (a broken loop would repeat one a thousand times).
const problem = (text) => {
  if (!problems.includes(text)) problems.push(text);
};

try {
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (err) => problem(`page error: ${err.message}`));
  page.on("console", (msg) => {
    // The syntax-error step's 400 is expected; chromium logs every non-2xx load.
    const expected = /status of 40[01] \((Bad Request|Unauthorized)\)/.test(msg.text());
    if (msg.type() === "error" && !expected) problem(`console error: ${msg.text()}`);
  });

  await page.goto(baseUrl);
  report.title = await page.title();
  // Drawn on first load: term 1 is filled in, nothing was run.
  await page.locator("#drawing svg").waitFor();
  report.firstLoad = { states: await page.locator("#drawing .state").count(), term: await page.inputValue("#term-1") };

  // Intersection, run with Enter from the second term's field.
  const firstDot = await page.locator("#dot").textContent();
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
  // The result's drawing replaces the first one once its own request answers.
  await page.waitForFunction((old) => document.querySelector("#dot")?.textContent !== old, firstDot);
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
  shared.on("pageerror", (err) => problem(`shared page error: ${err.message}`));
  await shared.goto(page.url());
  await shared.locator("#result .result-term").waitFor();
  report.shared = {
    terms: [await shared.inputValue("#term-1"), await shared.inputValue("#term-2")],
    operation: await shared.inputValue("#operation"),
    result: await shared.locator("#result .result-term").textContent(),
  };
  await shared.close();

  // The running state: while a slow answer is on its way, the previous one is gone.
  await page.route("**/v1/compute/union", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.selectOption("#operation", "compute/union");
  await page.click("#run");
  await page.locator("#output.running").waitFor();
  report.running = {
    busy: await page.getAttribute("#output", "aria-busy"),
    result: await page.locator("#result").textContent(),
    oldResultShown: await page.locator("#result .result-term").count(),
    runDisabled: await page.isDisabled("#run"),
  };
  await page.locator("#output:not(.running) #result .result-term").waitFor();
  await page.unroute("**/v1/compute/union");

  // Test strings against term 1, updated as they are typed.
  await page.fill("#test-strings", "");
  await page.type("#test-strings", "abcde\ndede\ndex\nab\n٠");
  await page.locator("#test-results li").nth(4).waitFor();
  const testResults = async () => page.locator("#test-results li").evaluateAll((items) =>
    items.map((li) => ({ matches: li.classList.contains("yes"), viable: li.dataset.viable ?? null, text: li.textContent })));
  report.tested = { term: await page.inputValue("#term-1"), results: await testResults() };
  // Changing term 1 tests them again.
  await page.fill("#term-1", "de.*");
  await page.locator("#test-results li.yes", { hasText: "dex" }).waitFor();
  report.retested = { term: "de.*", results: await testResults() };

  // An equivalence witness says which term matches it, and its code points.
  await page.selectOption("#operation", "analyze/equivalent");
  await page.fill("#term-1", "\\d");
  await page.fill("#term-2", "[0-9]");
  await page.click("#run");
  await page.locator("#result .witness-why", { hasText: "Term 1 matches" }).waitFor();
  report.witness = {
    why: await page.locator("#result .witness-why").textContent(),
    witness: await page.locator("#result .witness").textContent(),
    codePoints: await page.locator("#result .code-points").textContent(),
  };

  // Generation in a seeded shuffled order.
  await page.selectOption("#operation", "generate/strings");
  await page.fill("#term-1", "[a-z]{2}");
  await page.fill("#limit", "5");
  await page.selectOption("#path-order", "shuffled");
  await page.selectOption("#character-order", "shuffled");
  await page.fill("#seed", "7");
  await page.click("#run");
  await page.locator("#page-info", { hasText: "strings 1–5" }).waitFor();
  report.shuffledPage = await page.locator("#result .strings li").allTextContents();
  await page.selectOption("#path-order", "sweep");
  await page.selectOption("#character-order", "ascending");
  await page.fill("#seed", "0");

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
  await page.fill("#term-2", "de(?|x)");
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

  // A 32-state automaton, whole in its box, at a desktop's and a phone's width.
  report.large = {};
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("about:blank");
    await page.goto(`${baseUrl}${LARGE}`);
    await page.locator("#output:not(.running)").waitFor();
    await page.locator("#drawing svg .state").first().waitFor();
    report.large[width] = await page.evaluate(drawingFits);
    await page.locator("#automaton").screenshot({ path: join(shotDir, `large-${width}.png`) });
  }
  report.largeDot = await page.locator("#dot").textContent();

  // The drawing as an SVG file.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export-svg")]);
  const exported = readFileSync(await download.path(), "utf8");
  report.exported = {
    name: download.suggestedFilename(),
    isSvg: exported.includes("<svg") && exported.includes('xmlns="http://www.w3.org/2000/svg"'),
    states: (exported.match(/<title>state \d+/g) ?? []).length,
    styled: / stroke="[^"]+"/.test(exported),
  };

  // The README's pictures: the default intersection, at both widths, from the top.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 700 ? 800 : 844 });
    await page.goto("about:blank");
    await page.goto(`${baseUrl}${INTERSECTION}`);
    await page.locator("#output:not(.running) #result .sample li").first().waitFor();
    await page.locator("#test-results li").first().waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(shotDir, `playground-${width}.png`) });
  }

  // A server with a tokens file: refused without the token, answered with it, and the
  // token is still there after a reload.
  if (authUrl && token) {
    const guarded = await context.newPage();
    guarded.on("pageerror", (err) => problem(`token page error: ${err.message}`));
    await guarded.goto(authUrl);
    await guarded.click("#run");
    await guarded.locator("#error:not([hidden])").waitFor();
    report.auth = {
      refused: await guarded.locator("#error .error-code").textContent(),
      accessOpen: await guarded.getAttribute("#access", "open"),
    };
    await guarded.fill("#token", token);
    await guarded.click("#run");
    await guarded.locator("#result .result-term").waitFor();
    report.auth.answered = await guarded.locator("#result .result-term").textContent();
    await guarded.reload();
    report.auth.kept = await guarded.inputValue("#token");
    await guarded.close();
  }
} catch (err) {
  problem(`step failed: ${err.message}`);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}

console.log(JSON.stringify(report));
process.exit(problems.length ? 1 : 0);
