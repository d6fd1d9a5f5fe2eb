// Home-engine oracle for JavaScript's RegExp (no flags unless the P line names some):
// full match as ^(?:P)$. Protocol in README.md.
const lines = require("fs").readFileSync(0, "utf8").split("\n");

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

let re = null;
const out = [];
for (const line of lines) {
  if (!line) continue;
  const [kind, data = "", flags = ""] = line.split(" ");
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
  if (kind === "P") {
    try {
      re = new RegExp("^(?:" + text + ")$", flags);
      out.push("ok");
    } catch (err) {
      re = null;
      out.push("E");
    }
  } else {
    out.push(re !== null && re.test(text) ? "1" : "0");
  }
}
process.stdout.write(out.join("\n") + "\n");
