// Home-engine oracle for JavaScript's RegExp (no flags unless the P line names some):
// full match as ^(?:P)$. Protocol in README.md.
const lines = require("fs").readFileSync(0, "utf8").split("\n");
const vm = require("vm");

// The code points of `lo-hi,c,...` (hex), surrogates left out.
function* parseRanges(text) {
  for (const part of text.split(",").filter(Boolean)) {
    const [lo, hi] = part.split("-").map((digits) => parseInt(digits, 16));
    for (let code = lo; code <= (hi === undefined ? lo : hi); code++) {
      if (code < 0xd800 || code > 0xdfff) yield code;
    }
  }
}

// `codes` (ascending) as `lo-hi,c,...` (hex).
function formatRanges(codes) {
  const runs = [];
  for (const code of codes) {
    const last = runs[runs.length - 1];
    if (last && last[1] + 1 === code) last[1] = code;
    else runs.push([code, code]);
  }
  return runs.map(([lo, hi]) => (lo === hi ? lo.toString(16) : `${lo.toString(16)}-${hi.toString(16)}`)).join(",");
}

// The Unicode version and the assigned code points, as the `V` answer.
function assigned() {
  const isAssigned = /\P{Cn}/u;
  const codes = [...parseRanges("0-10ffff")].filter((code) => isAssigned.test(String.fromCodePoint(code)));
  return `v ${process.versions.unicode} ${formatRanges(codes)}`;
}

// The most time one pattern's strings may take together: V8 backtracks exponentially on
// some nested quantifiers with references, and a batch must end. Past it, the pattern's
// answer is `T` (its strings answer `0`, read by no one).
const PATTERN_MS = 2000;
const context = vm.createContext({ re: null, texts: [] });
// The engine's own failures while matching (a RangeError on a deep backtrack) answer `X`.
const answerAll = new vm.Script(
  'texts.map((text) => { try { return re.test(text) ? "1" : "0"; } catch (err) { return "X"; } })',
);

let re = null;
// The last pattern's answer (its index in `out`) and its strings, answered together.
let pending = null;
const out = [];

function flush() {
  if (pending === null) return;
  const { at, texts } = pending;
  pending = null;
  if (re === null) {
    out.push(...texts.map(() => "0"));
    return;
  }
  context.re = re;
  context.texts = texts;
  try {
    const answers = answerAll.runInContext(context, { timeout: PATTERN_MS });
    if (answers.includes("X")) process.stderr.write(`check.js: matching ${re} failed\n`);
    out.push(...answers.map((answer) => (answer === "1" ? "1" : "0")));
  } catch (err) {
    process.stderr.write(`check.js: ${re} took over ${PATTERN_MS} ms\n`);
    out[at] = "T";
    out.push(...texts.map(() => "0"));
  }
}

for (const line of lines) {
  if (!line) continue;
  const [kind, data = "", flags = ""] = line.split(" ");
  if (kind === "S") {
    pending.texts.push(Buffer.from(data, "base64").toString("utf8"));
    continue;
  }
  flush();
  if (kind === "A") {
    const codes = [...parseRanges(data)].filter((code) => re !== null && re.test(String.fromCodePoint(code)));
    out.push(`r ${formatRanges(codes)}`.trimEnd());
    continue;
  }
  if (kind === "V") {
    out.push(assigned());
    continue;
  }
  const text = Buffer.from(data, "base64").toString("utf8");
  try {
    re = new RegExp("^(?:" + text + ")$", flags);
    out.push("ok");
  } catch (err) {
    re = null;
    out.push("E");
  }
  pending = { at: out.length - 1, texts: [] };
}
flush();
process.stdout.write(out.join("\n") + "\n");
