// relang playground: builds v1 requests from the form, shows the answers, draws automata,
// tests strings as they are typed.
//
// Everything talks to the server that served the page (same origin, `/v1/...`), with the
// access token, if one was given, as `Authorization: Bearer`. The state that matters
// (terms, operation, options) lives in the form and is mirrored into the URL fragment
// after every run, so a link reproduces the run; the token lives only in local storage.
"use strict";

// Every analyze, compute and generate endpoint: path, request shape, label, what it answers.
// The server's tests check this table against the API's list of endpoints.
const OPERATIONS = [
  ["/v1/analyze/backtracking", "BacktrackingRequest", "Backtracking risk", "How the time term 1's engine (its dialect: python, js, java or pcre) takes to fully match it grows with the input, with an attack string and the parts of the pattern responsible (an extension of the v1 API)."],
  ["/v1/analyze/cardinality", "TermRequest", "Cardinality", "How many strings term 1 matches."],
  ["/v1/analyze/count_by_length", "CountByLengthRequest", "Counts by length", "How many strings of each length term 1 matches, from min to max length (an extension of the v1 API)."],
  ["/v1/analyze/deterministic", "TermRequest", "Deterministic", "Whether term 1's automaton is deterministic (for a pattern: its position automaton)."],
  ["/v1/analyze/dot", "TermRequest", "DOT", "The Graphviz text of term 1's minimal automaton."],
  ["/v1/analyze/empty", "TermRequest", "Empty", "Whether term 1 matches no string at all."],
  ["/v1/analyze/empty_string", "TermRequest", "Only the empty string", "Whether term 1 matches exactly the empty string."],
  ["/v1/analyze/equivalent", "TwoTermsRequest", "Equivalent", "Whether terms 1 and 2 match the same strings; if not, a shortest string that tells them apart."],
  ["/v1/analyze/length", "TermRequest", "Length", "The lengths of term 1's shortest and longest strings."],
  ["/v1/analyze/match", "MatchRequest", "Match strings", "Whether term 1 matches each line of the Test strings box, and where each fails (an extension of the v1 API)."],
  ["/v1/analyze/overlaps", "MultiTermsRequest", "Overlaps", "Which pairs of terms share a string, each with a shortest one (an extension of the v1 API)."],
  ["/v1/analyze/pattern", "TermRequest", "Pattern", "A short pattern for term 1's language."],
  ["/v1/analyze/subset", "TwoTermsRequest", "Subset", "Whether every string of term 1 is a string of term 2; if not, a shortest one that is not."],
  ["/v1/analyze/total", "TermRequest", "Total", "Whether term 1 matches every string."],
  ["/v1/compute/complement", "TermRequest", "Complement", "Every string term 1 does not match."],
  ["/v1/compute/concat", "MultiTermsRequest", "Concatenation", "A string of each term, one after the other, in order."],
  ["/v1/compute/determinize", "TermRequest", "Determinize", "Term 1 as a deterministic FAIR value (pages of strings then never repeat)."],
  ["/v1/compute/difference", "TwoTermsRequest", "Difference", "The strings of term 1 that term 2 does not match."],
  ["/v1/compute/intersection", "MultiTermsRequest", "Intersection", "The strings every term matches."],
  ["/v1/compute/left_quotient", "TwoTermsRequest", "Left quotient", "What can follow a prefix from term 2 in term 1: every v with u·v in term 1 for some u in term 2 (an extension of the v1 API)."],
  ["/v1/compute/prefix_closure", "TermRequest", "Prefixes", "Every prefix of every string of term 1 (an extension of the v1 API)."],
  ["/v1/compute/repeat", "RepeatRequest", "Repeat", "Term 1 repeated between min and max times."],
  ["/v1/compute/reverse", "TermRequest", "Reverse", "The strings of term 1 read backwards (an extension of the v1 API)."],
  ["/v1/compute/right_quotient", "TwoTermsRequest", "Right quotient", "What can precede a suffix from term 2 in term 1: every u with u·v in term 1 for some v in term 2 (an extension of the v1 API)."],
  ["/v1/compute/suffix_closure", "TermRequest", "Suffixes", "Every suffix of every string of term 1 (an extension of the v1 API)."],
  ["/v1/compute/union", "MultiTermsRequest", "Union", "The strings any term matches."],
  ["/v1/generate/samples", "SampleRequest", "Random samples", "Strings of term 1 drawn uniformly at random, with replacement, from the seed (an extension of the v1 API)."],
  ["/v1/generate/strings", "GenerateStringsRequest", "Generate strings", "A page of term 1's strings."],
].map(([path, request, label, help]) => ({ path, request, label, help, name: path.slice(4) }));

const DEFAULT_OPERATION = "compute/intersection";
const DEFAULT_TERMS = [{ kind: "regex", value: "(abc|de){2}" }, { kind: "regex", value: "de.*" }];
// How many strings of a computed language the result shows.
const SAMPLE_SIZE = 5;
// Above this many states a drawing helps nobody; the DOT text is still shown.
const MAX_DRAWN_STATES = 120;
// Edge labels longer than this are cut (the full label is the edge's tooltip).
const MAX_LABEL_CHARS = 28;
// The most strings one match request may carry (the API's limit).
const MAX_TEST_STRINGS = 100;
// How long typing must pause before the test strings are sent again, in ms.
const TEST_DELAY_MS = 150;
// Where the access token is kept (this origin's local storage).
const TOKEN_KEY = "relang.token";
// The codes of a refused token: the access box opens to ask for one.
const TOKEN_ERRORS = ["MissingOrMalformedToken", "InvalidToken"];

const $ = (id) => document.getElementById(id);

// How many terms each request shape sends: the first `n` rows (null = all).
function termsUsed(operation) {
  switch (operation.request) {
    case "TwoTermsRequest": return 2;
    case "MultiTermsRequest": return null;
    default: return 1;
  }
}

function operationByName(name) {
  return OPERATIONS.find((op) => op.name === name);
}

function currentOperation() {
  return operationByName($("operation").value);
}

// ---------------------------------------------------------------- elements and helpers

// `document.createElement` with properties and children in one call.
function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key in node) node[key] = value;
    else node.setAttribute(key, value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

// A string as the reader should see it: controls and odd spaces escaped, like the DOT
// labels (`\u{0A}`), so `"a\n"` and `"a "` look different.
function visible(text) {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u00a0\u2028\u2029\ufeff]|^ | $/gu, (ch) =>
    `\\u{${ch.codePointAt(0).toString(16).toUpperCase().padStart(2, "0")}}`);
}

// The code points of the characters of `text` a reader cannot tell by sight: anything but
// printable ASCII, as `U+0660`.
function unusualCodePoints(text) {
  return [...new Set([...text].filter((ch) => !/^[\x21-\x7e]$/.test(ch)))]
    .map((ch) => `U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
}

// A possibly empty string for display: the empty string is shown as ε.
function stringNode(text) {
  return text === "" ? el("span", { class: "empty-string", title: "the empty string" }, "ε (empty)")
    : el("code", {}, visible(text));
}

// ---------------------------------------------------------------- terms

function termRows() {
  return [...$("terms").children];
}

function addTerm(term = { kind: "regex", value: "" }) {
  const row = $("term-row").content.firstElementChild.cloneNode(true);
  row.querySelector(".term-kind").value = term.kind;
  row.querySelector(".term-value").value = term.value;
  row.querySelector(".remove").addEventListener("click", () => removeTerm(row));
  row.querySelector(".term-value").addEventListener("input", () => clearMark(row));
  $("terms").append(row);
  renumberTerms();
  return row;
}

function removeTerm(row) {
  const rows = termRows();
  if (rows.length <= 1) return;
  const idx = rows.indexOf(row);
  row.remove();
  renumberTerms();
  const next = termRows()[Math.max(0, idx - 1)];
  next.querySelector(".term-value").focus();
}

// Labels, ids and the "not used" hint follow the rows' order and the operation.
function renumberTerms() {
  const rows = termRows();
  const used = termsUsed(currentOperation()) ?? rows.length;
  rows.forEach((row, idx) => {
    const n = idx + 1;
    const input = row.querySelector(".term-value");
    input.id = `term-${n}`;
    const label = row.querySelector(".term-label");
    label.htmlFor = input.id;
    label.textContent = idx < used ? `Term ${n}` : `Term ${n} (not used by this operation)`;
    row.classList.toggle("unused", idx >= used);
    row.querySelector(".term-kind").setAttribute("aria-label", `Kind of term ${n}`);
    const remove = row.querySelector(".remove");
    remove.setAttribute("aria-label", `Remove term ${n}`);
    remove.disabled = rows.length <= 1;
  });
  refreshAutomatonChoices();
}

function readTerms() {
  return termRows().map((row) => ({
    kind: row.querySelector(".term-kind").value,
    value: row.querySelector(".term-value").value,
  }));
}

function setTerms(terms) {
  $("terms").replaceChildren();
  for (const term of terms.length ? terms : [{ kind: "regex", value: "" }]) addTerm(term);
}

// A form term on the wire; a pattern carries the chosen dialect unless it is the default.
function wireTerm(term) {
  const dialect = $("dialect").value;
  if (term.kind === "regex" && dialect !== "rust") return { type: "regex", value: term.value, dialect };
  return { type: term.kind, value: term.value };
}

// ---------------------------------------------------------------- options

// An integer field: its number, or undefined when left blank (the server's default).
// Anything else goes to the server as typed, so it answers with the contract's error.
function integerField(id) {
  const raw = $(id).value.trim();
  if (raw === "") return undefined;
  const number = Number(raw);
  return Number.isFinite(number) ? number : raw;
}

function responseOptions() {
  const format = $("format").value;
  if (format === "fair-deterministic") return { response: { format: "fair", fair: { deterministic: true } } };
  return { response: { format } };
}

// The JSON body of `operation` on `terms` from the form; computations also say in what
// form their result should come back.
function requestBody(operation, terms) {
  const body = requestFields(operation, terms);
  if (operation.name.startsWith("compute/")) body.options = responseOptions();
  return body;
}

function requestFields(operation, terms) {
  const first = wireTerm(terms[0]);
  switch (operation.request) {
    case "TermRequest":
      return { term: first };
    case "TwoTermsRequest":
    case "MultiTermsRequest":
      return { terms: terms.map(wireTerm) };
    case "RepeatRequest":
      return { term: first, min: integerField("repeat-min") ?? 0, max: integerField("repeat-max") ?? null };
    case "MatchRequest":
      return { term: first, strings: testLines().slice(0, MAX_TEST_STRINGS) };
    case "BacktrackingRequest":
      return { term: first };
    case "SampleRequest":
      return {
        term: first,
        count: integerField("sample-count") ?? 10,
        minLength: integerField("sample-min-length"),
        maxLength: integerField("sample-max-length"),
        distribution: $("sample-distribution").value,
        seed: integerField("sample-seed"),
      };
    case "CountByLengthRequest":
      return { term: first, minLength: integerField("count-min-length") ?? 0, maxLength: integerField("count-max-length") ?? 10 };
    case "GenerateStringsRequest": {
      const charset = $("charset").value;
      return {
        term: first,
        limit: integerField("limit") ?? 10,
        offset: integerField("offset") ?? 0,
        minLength: integerField("min-length"),
        maxLength: integerField("max-length"),
        pathOrder: $("path-order").value,
        characterOrder: $("character-order").value,
        seed: integerField("seed"),
        charset: charset === "" ? null : charset,
      };
    }
    default:
      throw new Error(`no request shape ${operation.request}`);
  }
}

// Shows the options the operation reads, and only those.
function showOptions() {
  const operation = currentOperation();
  $("operation-help").textContent = operation.help;
  $("repeat-options").hidden = operation.request !== "RepeatRequest";
  $("generate-options").hidden = operation.request !== "GenerateStringsRequest";
  $("count-options").hidden = operation.request !== "CountByLengthRequest";
  $("sample-options").hidden = operation.request !== "SampleRequest";
  $("format-options").hidden = !operation.name.startsWith("compute/") || operation.name === "compute/determinize";
  renumberTerms();
}

// ---------------------------------------------------------------- the API

class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

// The request headers: JSON, and the access token when one was given.
function requestHeaders() {
  const token = $("token").value.trim();
  const headers = { "content-type": "application/json" };
  if (token !== "") headers.authorization = `Bearer ${token}`;
  return headers;
}

// Keeps the token field in local storage, or forgets it when cleared.
function storeToken() {
  const token = $("token").value.trim();
  if (token === "") localStorage.removeItem(TOKEN_KEY);
  else localStorage.setItem(TOKEN_KEY, token);
}

// POSTs `body` to `path`; the `data` of a success, or an `ApiError`.
async function call(path, body) {
  let response;
  try {
    response = await fetch(path, { method: "POST", headers: requestHeaders(), body: JSON.stringify(body) });
  } catch (err) {
    throw new ApiError("NetworkError", `the server did not answer: ${err.message}`);
  }
  let envelope;
  try {
    envelope = await response.json();
  } catch {
    throw new ApiError(`HTTP ${response.status}`, "the answer was not JSON");
  }
  if (!envelope.success) throw new ApiError(envelope.errorCode ?? `HTTP ${response.status}`, envelope.error ?? "");
  return envelope.data;
}

// ---------------------------------------------------------------- running

// What the last run produced: its result term, if any, and the DOT text of term 1 when
// that was the question.
const last = { resultTerm: null, dot: null };
// Increases with every run, so a slow answer never overwrites a newer one.
let runCounter = 0;

async function run() {
  const operation = currentOperation();
  const allTerms = readTerms();
  const used = termsUsed(operation);
  const terms = used === null ? allTerms : allTerms.slice(0, used);
  const id = ++runCounter;
  saveToFragment();
  clearMarks();
  showRunning(operation);
  try {
    const data = await call(operation.path, requestBody(operation, terms));
    if (id !== runCounter) return;
    last.resultTerm = data.type === "regex" || data.type === "fair" ? { kind: data.type, value: data.value } : null;
    last.dot = operation.name === "analyze/dot" ? data.value : null;
    if (last.dot !== null) $("dot-box").open = true;
    showResult(operation, data);
    refreshAutomatonChoices(last.resultTerm ? "result" : "term-1");
    await Promise.all([
      drawSelected(),
      last.resultTerm && showSample(last.resultTerm, id),
      operation.name === "analyze/equivalent" && typeof data.witness === "string" && explainWitness(terms, data.witness, id),
    ]);
  } catch (err) {
    if (id !== runCounter) return;
    showError(err, terms);
  } finally {
    if (id === runCounter) {
      $("run").disabled = false;
      for (const panel of [$("output"), $("automaton")]) {
        panel.classList.remove("running");
        panel.removeAttribute("aria-busy");
      }
    }
  }
}

// While `operation` runs: the previous answer is cleared (and the drawing dimmed), so it
// is never read as the new operation's.
function showRunning(operation) {
  $("error").hidden = true;
  $("pager").hidden = true;
  $("run").disabled = true;
  $("result").replaceChildren(el("p", { class: "running-note" }, `Running ${operation.label}…`));
  for (const panel of [$("output"), $("automaton")]) {
    panel.classList.add("running");
    panel.setAttribute("aria-busy", "true");
  }
}

// ---------------------------------------------------------------- results

function showResult(operation, data) {
  const result = $("result");
  $("pager").hidden = true;
  const heading = el("p", { class: "hint" }, `${operation.label} (POST ${operation.path})`);
  result.replaceChildren(heading, ...renderData(operation, data));
}

function renderData(operation, data) {
  switch (data.type) {
    case "boolean":
      return renderBoolean(operation, data);
    case "integer":
    case "bigInteger":
      return renderCount(String(data.value));
    case "infinite":
      return [el("p", { class: "answer" }, "Infinitely many strings")];
    case "length":
      return renderLength(data);
    case "overlaps":
      return data.overlaps.length
        ? [el("ul", { class: "overlaps" }, ...data.overlaps.map((overlap) => el("li", {},
            `terms ${overlap.terms[0] + 1} and ${overlap.terms[1] + 1} share `,
            el("span", { class: "witness" }, stringNode(overlap.witness)))))]
        : [el("p", { class: "answer" }, "No two terms share a string")];
    case "backtracking":
      return renderBacktracking(data);
    case "lengthCounts":
      return [el("dl", { class: "facts length-counts" }, ...data.counts.flatMap((entry) => [
        el("dt", {}, characters(entry.length)), el("dd", {}, String(entry.count.value))]))];
    case "string":
      return operation.name === "analyze/dot"
        ? [el("p", {}, "The DOT text is below, under Automaton, and drawn there.")]
        : renderTerm({ kind: "regex", value: data.value });
    case "regex":
    case "fair":
      return renderTerm({ kind: data.type, value: data.value }, data.metadata);
    case "generatedStrings":
      if (operation.request === "SampleRequest") {
        const drawn = data.strings.value;
        return drawn.length
          ? [el("ol", { class: "strings" }, ...drawn.map((text) => el("li", {}, stringNode(text))))]
          : [el("p", {}, "No strings in this length range.")];
      }
      return renderStrings(data.strings.value);
    case "matches": {
      const strings = testLines();
      return [el("ol", { class: "test-results" }, ...data.results.map((result, idx) => testResult(strings[idx], result)))];
    }
    default:
      return [el("pre", { class: "code" }, JSON.stringify(data, null, 2))];
  }
}

// The growth, the attack as prefix + pump×k + suffix, and the pattern with its hotspot
// marked (byte spans, turned into the pattern's UTF-16 indices).
function renderBacktracking(data) {
  const growth = {
    linear: "Linear: the engine's time grows at most in proportion to the input",
    polynomial: `Polynomial: the engine's time grows like n^${data.degree}`,
    exponential: "Exponential: each repetition of the pump multiplies the engine's time",
    unknown: `Unknown: ${data.reason}`,
  }[data.complexity] ?? data.complexity;
  const out = [el("p", { class: "answer" }, growth)];
  if (data.attack) {
    const { prefix, pump, suffix } = data.attack;
    out.push(el("p", {}, "Attack: ", el("span", { class: "witness" }, stringNode(prefix)), " + ",
      el("span", { class: "witness" }, stringNode(pump)), " × k + ",
      el("span", { class: "witness" }, stringNode(suffix))));
  }
  const pattern = readTerms()[0]?.value ?? "";
  if (data.hotspot.length && pattern) {
    const parts = [];
    let at = 0;
    for (const span of data.hotspot) {
      const [start, end] = [utf16Index(pattern, span.start), utf16Index(pattern, span.end)];
      if (start === null || end === null || start < at) continue;
      parts.push(pattern.slice(at, start), el("mark", {}, pattern.slice(start, end)));
      at = end;
    }
    parts.push(pattern.slice(at));
    out.push(el("p", {}, "Hotspot: ", el("code", {}, ...parts)));
  }
  return out;
}

function renderBoolean(operation, data) {
  const out = [el("p", { class: `answer ${data.value ? "yes" : "no"}` }, data.value ? "Yes" : "No")];
  if (typeof data.witness === "string") {
    const why = operation.name === "analyze/subset"
      ? "Term 1 matches this string, term 2 does not:"
      : "Exactly one of the two terms matches this string:";
    const codePoints = unusualCodePoints(data.witness);
    out.push(el("p", {}, el("span", { class: "witness-why" }, why), " ",
      el("span", { class: "witness" }, stringNode(data.witness)),
      codePoints.length ? el("span", { class: "code-points" }, ` (${codePoints.join(" ")})`) : null));
  }
  return out;
}

// Says which of the two terms matches an equivalence witness, asking the server whether
// term 1 does.
async function explainWitness(terms, witness, id) {
  try {
    const data = await call("/v1/analyze/match", { term: wireTerm(terms[0]), strings: [witness] });
    if (id !== runCounter) return;
    const why = $("result").querySelector(".witness-why");
    if (why) {
      why.textContent = data.results[0].matches
        ? "Term 1 matches this string, term 2 does not:"
        : "Term 2 matches this string, term 1 does not:";
    }
  } catch {
    // The sentence without the term stays: still true.
  }
}

// A count given as decimal digits: grouped when short, else its magnitude (read off the
// digits, as a float would overflow past 10^308) and every digit.
function renderCount(digits) {
  if (digits.length <= 15) {
    return [el("p", { class: "answer" }, digits === "1" ? "1 string" : `${Number(digits).toLocaleString("en")} strings`)];
  }
  const leading = `${digits[0]}.${digits.slice(1, 4)}`;
  return [
    el("p", { class: "answer" }, `about ${leading} × 10`, el("sup", {}, String(digits.length - 1)), " strings"),
    el("p", {}, `Exactly (${digits.length} digits):`),
    el("pre", { class: "code count" }, digits),
  ];
}

function renderLength(data) {
  if (data.min === null) return [el("p", { class: "answer" }, "No strings: the language is empty")];
  return [el("dl", { class: "facts" },
    el("dt", {}, "Shortest"), el("dd", { class: "length-min" }, characters(data.min)),
    el("dt", {}, "Longest"), el("dd", { class: "length-max" }, data.max === null ? "no limit (infinite language)" : characters(data.max)))];
}

function characters(count) {
  return count === 1 ? "1 character" : `${count} characters`;
}

function renderTerm(term, metadata) {
  const what = term.kind === "regex" ? "Pattern" : "FAIR value";
  const facts = [el("dt", {}, what), el("dd", {}, el("code", { class: "result-term" }, term.value))];
  if (metadata) facts.push(el("dt", {}, "Deterministic"), el("dd", {}, metadata.deterministic ? "yes" : "no"));
  const use = el("button", { type: "button" }, "Use as term 1");
  use.addEventListener("click", () => {
    const row = termRows()[0];
    row.querySelector(".term-kind").value = term.kind;
    row.querySelector(".term-value").value = term.value;
    clearMark(row);
    row.querySelector(".term-value").focus();
  });
  return [el("dl", { class: "facts" }, ...facts), el("div", { class: "row" }, use)];
}

function renderStrings(strings) {
  const offset = integerField("offset") ?? 0;
  const limit = integerField("limit") ?? 10;
  const list = el("ol", { class: "strings", start: offset + 1 },
    ...strings.map((text) => el("li", {}, stringNode(text))));
  const pager = $("pager");
  pager.hidden = false;
  $("page-info").textContent = strings.length
    ? `strings ${offset + 1}–${offset + strings.length}`
    : `no strings after ${offset}`;
  $("previous-page").disabled = offset <= 0;
  $("next-page").disabled = strings.length < limit;
  return strings.length ? [list] : [el("p", {}, "No strings on this page.")];
}

// A few strings of a computed language, so the answer can be checked at a glance.
async function showSample(term, id) {
  const box = el("div", { class: "sample" }, el("p", {}, "Some of its strings:"));
  try {
    const data = await call("/v1/generate/strings", { term: wireTerm(term), limit: SAMPLE_SIZE });
    const strings = data.strings.value;
    box.append(strings.length ? el("ol", { class: "strings" }, ...strings.map((text) => el("li", {}, stringNode(text))))
      : el("p", {}, "None: the language is empty."));
  } catch (err) {
    box.append(el("p", { class: "hint" }, `No strings: ${err.code ?? "Error"}: ${err.message}`));
  }
  if (id === runCounter) $("result").append(box);
}

function turnPage(direction) {
  const limit = Math.max(1, integerField("limit") ?? 10);
  const offset = integerField("offset") ?? 0;
  $("offset").value = String(Math.max(0, offset + direction * limit));
  run();
}

// ---------------------------------------------------------------- errors

function showError(err, terms) {
  const code = err instanceof ApiError ? err.code : "Error";
  const box = $("error");
  box.replaceChildren(el("span", { class: "error-code" }, code), el("span", { class: "error-message" }, err.message));
  box.hidden = false;
  if (TOKEN_ERRORS.includes(code)) {
    box.append(el("p", { class: "hint" }, "This server needs an access token: give it under “Access token” at the top."));
    $("access").open = true;
  }
  $("result").replaceChildren();
  $("pager").hidden = true;
  $("dot").textContent = "";
  $("drawing").replaceChildren(el("p", { class: "hint" }, "Nothing to draw: the run failed."));
  if (code === "RegexSyntaxError") markSyntaxError(err.message, terms);
}

// The position in a parse error's message: `... (at 3..5: `\b`)`, in UTF-8 bytes.
function errorSpan(message) {
  const match = /\(at (\d+)\.\.(\d+)(?:: `([\s\S]*)`)?\)$/.exec(message);
  if (!match) return null;
  return { start: Number(match[1]), end: Number(match[2]), snippet: match[3] ?? null };
}

// The UTF-16 index of UTF-8 byte `offset` in `text`, or null when it is not a boundary.
function utf16Index(text, offset) {
  let bytes = 0;
  let idx = 0;
  for (const ch of text) {
    if (bytes === offset) return idx;
    if (bytes > offset) return null;
    bytes += new TextEncoder().encode(ch).length;
    idx += ch.length;
  }
  return bytes === offset ? idx : null;
}

// Finds the pattern the error is about (the message does not say which term it is):
// the first sent pattern in which the span exists and holds the quoted text.
function markSyntaxError(message, terms) {
  const span = errorSpan(message);
  if (!span) return;
  const rows = termRows();
  for (const [idx, term] of terms.entries()) {
    if (term.kind !== "regex") continue;
    const start = utf16Index(term.value, span.start);
    const end = utf16Index(term.value, span.end);
    if (start === null || end === null || start > end) continue;
    const text = term.value.slice(start, end);
    const fits = span.snippet === null || text === span.snippet
      || (span.snippet.endsWith("…") && text.startsWith(span.snippet.slice(0, -1)));
    if (fits) {
      markRow(rows[idx], term.value, start, end);
      return;
    }
  }
}

// Shows `value` under its input with `start..end` marked, and selects that part.
function markRow(row, value, start, end) {
  const input = row.querySelector(".term-value");
  const mark = row.querySelector(".term-mark");
  const marked = start === end ? el("mark", { class: "point", title: "here" }) : el("mark", {}, value.slice(start, end));
  mark.replaceChildren(value.slice(0, start), marked, value.slice(end));
  mark.id = `${input.id}-mark`;
  mark.hidden = false;
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", `${mark.id} error`);
  input.setSelectionRange(start, end);
}

function clearMark(row) {
  const input = row.querySelector(".term-value");
  input.removeAttribute("aria-invalid");
  input.removeAttribute("aria-describedby");
  row.querySelector(".term-mark").hidden = true;
}

function clearMarks() {
  termRows().forEach(clearMark);
}

// ---------------------------------------------------------------- automaton

// Fills the "draw the automaton of" choice: each term, and the last result term.
function refreshAutomatonChoices(selected) {
  const select = $("automaton-of");
  const keep = selected ?? select.value;
  const choices = termRows().map((_, idx) => [`term-${idx + 1}`, `Term ${idx + 1}`]);
  if (last.resultTerm) choices.push(["result", "The result"]);
  select.replaceChildren(...choices.map(([value, label]) => el("option", { value }, label)));
  if (choices.some(([value]) => value === keep)) select.value = keep;
}

function selectedAutomatonTerm() {
  const value = $("automaton-of").value;
  if (value === "result") return last.resultTerm;
  const row = termRows()[Number(value.slice("term-".length)) - 1];
  return row ? { kind: row.querySelector(".term-kind").value, value: row.querySelector(".term-value").value } : null;
}

// Asks the server for the DOT text of the chosen term and draws it.
async function drawSelected() {
  const drawing = $("drawing");
  const term = selectedAutomatonTerm();
  if (!term) return;
  // The DOT operation already answered for term 1.
  const reuse = last.dot !== null && $("automaton-of").value === "term-1";
  try {
    const dot = reuse ? last.dot : (await call("/v1/analyze/dot", { term: wireTerm(term) })).value;
    $("dot").textContent = dot;
    const picture = drawAutomaton(parseDot(dot));
    drawing.replaceChildren(picture);
    fitViewBox(picture);
  } catch (err) {
    $("dot").textContent = "";
    drawing.replaceChildren(el("p", { class: "hint" }, `No drawing: ${err.code ?? "Error"}: ${err.message}`));
  }
}

// The states and edges of the server's DOT text (see langcore's `dot.rs` for its shape).
function parseDot(text) {
  const states = new Map();
  const edges = [];
  let start = 0;
  for (const line of text.split("\n").map((raw) => raw.trim())) {
    let match;
    if ((match = /^start -> (\d+);$/.exec(line))) {
      start = Number(match[1]);
    } else if ((match = /^(\d+) -> (\d+) \[label="((?:[^"\\]|\\.)*)"\];$/.exec(line))) {
      edges.push({ from: Number(match[1]), to: Number(match[2]), label: match[3].replace(/\\(.)/g, "$1") });
    } else if ((match = /^(\d+)(?: \[shape=(circle|doublecircle)\])?;$/.exec(line))) {
      states.set(Number(match[1]), { id: Number(match[1]), accepting: match[2] === "doublecircle" });
    }
  }
  if (!states.has(start)) states.set(start, { id: start, accepting: false });
  return { start, states: [...states.values()], edges };
}

// Columns by breadth-first distance from the start; within a column, states sit near
// the states that lead to them (one barycentre pass), in the order BFS found them.
function layoutStates(graph) {
  const column = new Map([[graph.start, 0]]);
  const queue = [graph.start];
  const next = new Map(graph.states.map((state) => [state.id, []]));
  for (const edge of graph.edges) next.get(edge.from)?.push(edge.to);
  while (queue.length) {
    const id = queue.shift();
    for (const to of next.get(id) ?? []) {
      if (!column.has(to)) {
        column.set(to, column.get(id) + 1);
        queue.push(to);
      }
    }
  }
  const columns = [];
  for (const state of graph.states) {
    const col = column.get(state.id) ?? columns.length;
    column.set(state.id, col);
    (columns[col] ??= []).push(state.id);
  }
  const row = new Map();
  columns.forEach((ids, col) => {
    const weight = (id) => {
      const before = graph.edges.filter((e) => e.to === id && column.get(e.from) < col).map((e) => row.get(e.from));
      return before.length ? before.reduce((a, b) => a + b, 0) / before.length : 0;
    };
    ids.map((id, idx) => ({ id, key: weight(id), idx }))
      .sort((a, b) => a.key - b.key || a.idx - b.idx)
      .forEach(({ id }, idx) => row.set(id, idx));
  });
  return { column, row, columns: columns.map((ids) => ids ?? []) };
}

const RADIUS = 18;
const ROW_GAP = 96;
const PADDING = 16;
// The width of a label character in the drawing's 12px monospace font (an estimate).
const CHAR_WIDTH = 7.4;

function cutLabel(label) {
  return label.length > MAX_LABEL_CHARS ? `${label.slice(0, MAX_LABEL_CHARS - 1)}…` : label;
}

// An SVG drawing of `graph`: left to right, accepting states double-circled, each edge
// labelled with its character set. The view box is what the drawing covers.
function drawAutomaton(graph) {
  const n = graph.states.length;
  if (n > MAX_DRAWN_STATES) {
    return el("p", { class: "hint" }, `${n} states: too many to draw; the DOT text is below.`);
  }
  const { column, row, columns } = layoutStates(graph);
  // Each gap between columns is as wide as the longest label that crosses it.
  const gaps = columns.map(() => 90);
  for (const edge of graph.edges) {
    const from = column.get(edge.from);
    if (column.get(edge.to) === from + 1) {
      gaps[from] = Math.max(gaps[from], cutLabel(edge.label).length * CHAR_WIDTH + 2 * RADIUS + 28);
    }
  }
  const xs = [0];
  for (let col = 1; col < columns.length; col++) xs.push(xs[col - 1] + gaps[col - 1]);
  const tallest = Math.max(...columns.map((ids) => ids.length));
  const at = (id) => {
    const ids = columns[column.get(id)];
    return { x: xs[column.get(id)], y: ((tallest - ids.length) / 2 + row.get(id)) * ROW_GAP };
  };

  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  const cover = (x, y, halfWidth = 0, halfHeight = 0) => {
    box.minX = Math.min(box.minX, x - halfWidth);
    box.maxX = Math.max(box.maxX, x + halfWidth);
    box.minY = Math.min(box.minY, y - halfHeight);
    box.maxY = Math.max(box.maxY, y + halfHeight);
  };
  const parts = [];
  const start = at(graph.start);
  parts.push(svg("g", { class: "start-arrow" },
    svg("path", { d: `M ${start.x - RADIUS - 34} ${start.y} L ${start.x - RADIUS - 2} ${start.y}`, "marker-end": "url(#arrow-start)" })));
  cover(start.x - RADIUS - 34, start.y);
  const bends = edgeBends(graph, { column, row, columns });
  for (const edge of graph.edges) {
    const shape = edgeShape(edge, at(edge.from), at(edge.to), bends.get(edge) ?? 0);
    cover(shape.peak.x, shape.peak.y);
    cover(shape.labelAt.x, shape.labelAt.y, shape.label.length * CHAR_WIDTH / 2, 9);
    parts.push(svg("g", { class: "edge" }, svg("path", { d: shape.d, "marker-end": "url(#arrow)" }),
      svg("text", { x: shape.labelAt.x, y: shape.labelAt.y }, shape.label),
      svg("title", {}, `${edge.from} → ${edge.to}: ${edge.label}`)));
  }
  for (const state of graph.states) {
    const { x, y } = at(state.id);
    cover(x, y, RADIUS, RADIUS);
    parts.push(drawState(state, { x, y }));
  }

  const width = Math.ceil(box.maxX - box.minX + 2 * PADDING);
  const height = Math.ceil(box.maxY - box.minY + 2 * PADDING);
  const accepting = graph.states.filter((state) => state.accepting).length;
  return svg("svg", {
    width, height, viewBox: `${box.minX - PADDING} ${box.minY - PADDING} ${width} ${height}`, role: "img",
    class: isZoomed() ? "" : "fit", preserveAspectRatio: "xMidYMid meet",
    "aria-label": `Minimal automaton: ${n} states, ${accepting} accepting, ${graph.edges.length} edges`,
  }, svg("defs", {}, arrowhead("arrow", "arrowhead"), arrowhead("arrow-start", "arrowhead start")),
  svg("g", { class: "content" }, ...parts));
}

// Sets the view box to what the drawing really covers once rendered (curves, labels in
// their real font), plus a margin, so no arc or label is ever cut off.
function fitViewBox(picture) {
  const content = picture.querySelector(".content");
  if (!content) return;
  const box = content.getBBox();
  const width = Math.ceil(box.width + 2 * PADDING);
  const height = Math.ceil(box.height + 2 * PADDING);
  picture.setAttribute("viewBox", `${Math.floor(box.x - PADDING)} ${Math.floor(box.y - PADDING)} ${width} ${height}`);
  picture.setAttribute("width", width);
  picture.setAttribute("height", height);
}

function isZoomed() {
  return $("zoom").getAttribute("aria-pressed") === "true";
}

// "Actual size": the drawing at its own size in a scrolling box; again: fitted to the box.
function toggleZoom() {
  const zoomed = !isZoomed();
  $("zoom").setAttribute("aria-pressed", String(zoomed));
  $("zoom").textContent = zoomed ? "Fit to the box" : "Actual size";
  $("drawing").querySelector("svg")?.classList.toggle("fit", !zoomed);
}

// Style properties an exported drawing carries on each element (presentation attributes),
// since the page's style sheet does not travel with it.
const EXPORTED_STYLE = ["fill", "stroke", "stroke-width", "stroke-linejoin", "paint-order",
  "font-family", "font-size", "text-anchor", "dominant-baseline"];

// Downloads the drawing as a standalone SVG file, in the colours it has on the page.
function exportSvg() {
  const picture = $("drawing").querySelector("svg");
  if (!picture) return;
  const copy = picture.cloneNode(true);
  copy.removeAttribute("class");
  copy.setAttribute("xmlns", SVG_NS);
  const originals = picture.querySelectorAll("*");
  // As presentation attributes: a style attribute would break the page's policy (no
  // inline style), and they mean the same in the file.
  copy.querySelectorAll("*").forEach((node, idx) => {
    node.removeAttribute("class");
    if (node.localName === "title") return;
    const computed = getComputedStyle(originals[idx]);
    for (const name of EXPORTED_STYLE) node.setAttribute(name, computed.getPropertyValue(name));
  });
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  const link = el("a", { href: url, download: "automaton.svg" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function arrowhead(id, className) {
  return svg("marker", { id, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
    svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: className }));
}

function drawState(state, { x, y }) {
  const group = svg("g", { class: "state" }, svg("circle", { cx: x, cy: y, r: RADIUS }));
  if (state.accepting) group.append(svg("circle", { cx: x, cy: y, r: RADIUS - 4 }));
  group.append(svg("text", { x, y }, String(state.id)),
    svg("title", {}, `state ${state.id}${state.accepting ? " (accepting)" : ""}`));
  return group;
}

// How far each curved edge bows out of the straight line, in pixels. An edge to the
// next column is straight unless the opposite edge exists; the others curve (forward
// above, backward below), and curves on one side whose column ranges overlap take
// different lanes, shortest first, so neither they nor their labels lie on each other.
// A self-loop gets 1 (drawn above its state) or, in the lower half of a column, -1 (below).
function edgeBends(graph, { column, row, columns }) {
  const pairs = new Set(graph.edges.map((edge) => `${edge.from}>${edge.to}`));
  const curved = graph.edges.filter((edge) => {
    const span = column.get(edge.to) - column.get(edge.from);
    return edge.from !== edge.to && (span !== 1 || pairs.has(`${edge.to}>${edge.from}`));
  }).map((edge) => {
    const a = column.get(edge.from);
    const b = column.get(edge.to);
    return { edge, lo: Math.min(a, b), hi: Math.max(a, b), side: Math.sign(b - a) || (edge.from < edge.to ? 2 : -2) };
  }).sort((x, y) => (x.hi - x.lo) - (y.hi - y.lo));
  const placed = [];
  const bends = new Map();
  for (const edge of graph.edges.filter((e) => e.from === e.to)) {
    const size = columns[column.get(edge.from)].length;
    bends.set(edge, size > 1 && row.get(edge.from) >= size / 2 ? -1 : 1);
  }
  for (const curve of curved) {
    const clashes = (other) => other.side === curve.side
      && (Math.max(curve.lo, other.lo) < Math.min(curve.hi, other.hi) || (curve.lo === other.lo && curve.hi === other.hi));
    let lane = 0;
    while (placed.some((other) => other.lane === lane && clashes(other))) lane++;
    placed.push({ ...curve, lane });
    bends.set(curve.edge, 18 + 22 * lane + (curve.hi - curve.lo > 1 ? 14 : 0));
  }
  return bends;
}

// The path of an edge from `p1` to `p2` bowing `bend` pixels to the left of its
// direction of travel (up for forward edges), the point of the curve farthest out, and
// where its label goes. A self-loop sits on top of its state, or under it when `bend`
// is negative.
function edgeShape(edge, p1, p2, bend) {
  const label = cutLabel(edge.label);
  if (edge.from === edge.to) {
    const up = bend < 0 ? -1 : 1;
    const y = (offset) => p1.y - up * (RADIUS + offset);
    const d = `M ${p1.x - 9} ${y(-2)} C ${p1.x - 30} ${y(44)} ${p1.x + 30} ${y(44)} ${p1.x + 9} ${y(-2)}`;
    return { d, label, peak: { x: p1.x, y: y(32) }, labelAt: { x: p1.x, y: y(42) } };
  }
  const dx = p2.x - p1.x;
  const dy = p2.y - p1.y;
  const length = Math.hypot(dx, dy) || 1;
  const nx = dy / length;
  const ny = -dx / length;
  // A quadratic curve's midpoint lies halfway to its control point.
  const control = { x: (p1.x + p2.x) / 2 + nx * bend * 2, y: (p1.y + p2.y) / 2 + ny * bend * 2 };
  const from = towards(p1, bend ? control : p2, RADIUS);
  const to = towards(p2, bend ? control : p1, RADIUS + 1);
  const peak = { x: (p1.x + 2 * control.x + p2.x) / 4, y: (p1.y + 2 * control.y + p2.y) / 4 };
  return {
    d: `M ${from.x} ${from.y} Q ${control.x} ${control.y} ${to.x} ${to.y}`,
    label,
    peak,
    labelAt: { x: peak.x + nx * 9, y: peak.y + ny * 9 },
  };
}

// The point at `distance` from `center` towards `target`.
function towards(center, target, distance) {
  const dx = target.x - center.x;
  const dy = target.y - center.y;
  const length = Math.hypot(dx, dy) || 1;
  return { x: center.x + dx / length * distance, y: center.y + dy / length * distance };
}

async function copyDot() {
  const text = $("dot").textContent;
  const status = $("copy-status");
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = "Copied.";
  } catch {
    // No clipboard permission: select the text so Ctrl+C copies it.
    const range = document.createRange();
    range.selectNodeContents($("dot"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    status.textContent = "Selected: press Ctrl+C to copy.";
  }
}

// ---------------------------------------------------------------- test strings

// Increases with every test, so a slow answer never overwrites a newer one.
let testCounter = 0;
let testTimer = null;

function scheduleTest() {
  clearTimeout(testTimer);
  testTimer = setTimeout(testStrings, TEST_DELAY_MS);
}

// The test box's strings: one per line, a last empty line (after a final newline) dropped.
function testLines() {
  const lines = $("test-strings").value.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

// Sends term 1 and the test strings to `/v1/analyze/match` and shows each verdict.
async function testStrings() {
  const id = ++testCounter;
  const term = readTerms()[0];
  const lines = testLines();
  const strings = lines.slice(0, MAX_TEST_STRINGS);
  const results = $("test-results");
  if (!term || (lines.length === 1 && lines[0] === "")) {
    results.replaceChildren();
    return;
  }
  $("tester").classList.add("running");
  try {
    const data = await call("/v1/analyze/match", { term: wireTerm(term), strings });
    if (id !== testCounter) return;
    results.replaceChildren(...strings.map((text, idx) => testResult(text, data.results[idx])));
    if (lines.length > strings.length) {
      results.append(el("li", { class: "hint" }, `Only the first ${MAX_TEST_STRINGS} lines are tested.`));
    }
  } catch (err) {
    if (id !== testCounter) return;
    results.replaceChildren(el("li", { class: "hint" }, `${err.code ?? "Error"}: ${err.message}`));
  } finally {
    if (id === testCounter) $("tester").classList.remove("running");
  }
}

// One verdict: ✓, or ✗ with the string marked where it stops being a possible match
// (`viablePrefixLength` counts code points, so the string is split by code points).
function testResult(text, result) {
  if (result.matches) {
    return el("li", { class: "yes", title: "matches" }, el("span", { class: "verdict" }, "✓"), stringNode(text));
  }
  const chars = [...text];
  const cut = result.viablePrefixLength;
  const prefix = chars.slice(0, cut).join("");
  const shown = cut < chars.length
    ? [visible(prefix), el("mark", {}, visible(chars[cut])), visible(chars.slice(cut + 1).join(""))]
    : [visible(prefix), el("mark", { class: "point", title: "the string ends too soon" })];
  const why = cut < chars.length
    ? `does not match: character ${cut + 1} rules it out`
    : "does not match: it ends too soon";
  return el("li", { class: "no", title: why, "data-viable": String(cut) },
    el("span", { class: "verdict" }, "✗"), el("code", {}, ...shown));
}

// ---------------------------------------------------------------- the URL fragment

// Form fields kept in the fragment, by fragment key; only those the operation reads
// (those not in a hidden box of options) are written.
const FRAGMENT_FIELDS = {
  format: "format", min: "repeat-min", max: "repeat-max", limit: "limit", offset: "offset",
  minLength: "min-length", maxLength: "max-length", pathOrder: "path-order",
  characterOrder: "character-order", seed: "seed", charset: "charset",
  fromLength: "count-min-length", toLength: "count-max-length", count: "sample-count",
  sampleMinLength: "sample-min-length", sampleMaxLength: "sample-max-length",
  distribution: "sample-distribution", sampleSeed: "sample-seed",
};

// `#op=compute/intersection&r=(abc|de){2}&r=de.*&...`: `r` a pattern, `f` a FAIR value.
function saveToFragment() {
  const params = new URLSearchParams();
  params.append("op", currentOperation().name);
  for (const term of readTerms()) params.append(term.kind === "fair" ? "f" : "r", term.value);
  for (const [key, id] of Object.entries(FRAGMENT_FIELDS)) {
    const field = $(id);
    if (field.value !== "" && !field.closest(".options").hidden) params.append(key, field.value);
  }
  history.replaceState(null, "", `#${params}`);
}

// Restores the form from the fragment; true when there was one to restore.
function loadFromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const operation = operationByName(params.get("op") ?? "");
  if (!operation) return false;
  $("operation").value = operation.name;
  const terms = [];
  for (const [key, value] of params) {
    if (key === "r" || key === "f") terms.push({ kind: key === "f" ? "fair" : "regex", value });
  }
  setTerms(terms);
  for (const [key, id] of Object.entries(FRAGMENT_FIELDS)) {
    if (params.has(key)) $(id).value = params.get(key);
  }
  showOptions();
  return true;
}

// ---------------------------------------------------------------- wiring

function fillOperations() {
  const groups = new Map();
  for (const operation of OPERATIONS) {
    const area = operation.name.split("/")[0];
    if (!groups.has(area)) groups.set(area, el("optgroup", { label: area[0].toUpperCase() + area.slice(1) }));
    groups.get(area).append(el("option", { value: operation.name }, operation.label));
  }
  $("operation").replaceChildren(...groups.values());
}

function start() {
  fillOperations();
  $("operation").value = DEFAULT_OPERATION;
  $("query").addEventListener("submit", (event) => {
    event.preventDefault();
    // A new question starts on its first page.
    if (event.submitter === $("run") || event.submitter === null) $("offset").value = "0";
    run();
  });
  $("query").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      $("query").requestSubmit($("run"));
    }
  });
  $("operation").addEventListener("change", showOptions);
  $("add-term").addEventListener("click", () => addTerm().querySelector(".term-value").focus());
  $("previous-page").addEventListener("click", () => turnPage(-1));
  $("next-page").addEventListener("click", () => turnPage(1));
  $("automaton-of").addEventListener("change", () => {
    last.dot = null;
    drawSelected();
  });
  $("copy-dot").addEventListener("click", copyDot);
  $("zoom").addEventListener("click", toggleZoom);
  $("export-svg").addEventListener("click", exportSvg);
  $("token").value = localStorage.getItem(TOKEN_KEY) ?? "";
  $("token").addEventListener("input", storeToken);
  $("test-strings").addEventListener("input", scheduleTest);
  // Term 1 is what the strings are tested against.
  $("terms").addEventListener("input", scheduleTest);
  $("terms").addEventListener("change", scheduleTest);
  window.addEventListener("hashchange", () => {
    if (loadFromFragment()) run();
  });
  if (loadFromFragment()) {
    run();
  } else {
    setTerms(DEFAULT_TERMS);
    showOptions();
    drawSelected();
  }
  testStrings();
}

start();
