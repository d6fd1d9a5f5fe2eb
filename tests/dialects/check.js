// Home-engine oracle for JavaScript's RegExp (no flags): full match as ^(?:P)$.
const lines = require("fs").readFileSync(0, "utf8").split("\n");
let re = null;
const out = [];
for (const line of lines) {
  if (!line) continue;
  const space = line.indexOf(" ");
  const kind = space < 0 ? line : line.slice(0, space);
  const text = Buffer.from(space < 0 ? "" : line.slice(space + 1), "base64").toString("utf8");
  if (kind === "P") {
    try {
      re = new RegExp("^(?:" + text + ")$");
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
