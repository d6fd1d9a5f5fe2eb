#!/usr/bin/env node
// Checks that relang's patterns in the `js` dialect mean the same in JavaScript's RegExp
// without flags (no `u`: strings are UTF-16 code units, as in most code that uses them).
//
// Usage: node check_patterns.js FILE
//
// FILE holds one JSON object per line:
//     {"name": "...", "pattern": "...", "matches": ["..."], "rejects": ["..."]}
// Every pattern must compile as `new RegExp("^(?:" + pattern + ")$")`, accept every string of
// `matches` and reject every string of `rejects`. Exit status 0 when everything agrees; 1
// with one line per disagreement otherwise.
"use strict";

const fs = require("fs");

function check(entry) {
  const { name, pattern } = entry;
  let compiled;
  try {
    compiled = new RegExp(`^(?:${pattern})$`);
  } catch (err) {
    return [`${name}: ${JSON.stringify(pattern)} does not compile: ${err.message}`];
  }
  const problems = [];
  for (const text of entry.matches) {
    if (!compiled.test(text)) problems.push(`${name}: ${JSON.stringify(pattern)} rejects ${JSON.stringify(text)}`);
  }
  for (const text of entry.rejects) {
    if (compiled.test(text)) problems.push(`${name}: ${JSON.stringify(pattern)} accepts ${JSON.stringify(text)}`);
  }
  return problems;
}

function main(argv) {
  if (argv.length !== 1) {
    console.error("usage: node check_patterns.js FILE");
    return 2;
  }
  const problems = [];
  let nPatterns = 0;
  let nStrings = 0;
  for (const line of fs.readFileSync(argv[0], "utf8").split("\n")) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line);
    nPatterns += 1;
    nStrings += entry.matches.length + entry.rejects.length;
    problems.push(...check(entry));
  }
  for (const problem of problems) console.log(problem);
  console.log(`checked ${nPatterns} patterns on ${nStrings} strings: ${problems.length} problems`);
  return problems.length ? 1 : 0;
}

process.exit(main(process.argv.slice(2)));
