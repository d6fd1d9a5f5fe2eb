// Runs recheck 4.5.0 (npm) on every pattern of a JSON-lines corpus and writes its verdicts,
// one JSON object a line: id, status (safe | vulnerable | unknown), complexity, attack
// string, milliseconds. Usage: node recheck.js corpus.jsonl > recheck.jsonl
// (run from a directory where `npm install recheck@4.5.0` was done, or with NODE_PATH).
'use strict';
const fs = require('fs');
const { checkSync } = require('recheck');

const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
for (const line of lines) {
  const entry = JSON.parse(line);
  const flags = entry.flags.replace(/[^gimsuyd]/g, '');
  const start = process.hrtime.bigint();
  let res;
  try {
    res = checkSync(entry.pattern, flags, { timeout: 5000 });
  } catch (err) {
    res = { status: 'error', error: String(err) };
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const out = { id: entry.id, status: res.status, ms: Math.round(ms * 10) / 10 };
  if (res.complexity) out.complexity = res.complexity.type + (res.complexity.degree ? `:${res.complexity.degree}` : '');
  if (res.checker) out.checker = res.checker;
  if (res.attack) out.attack = res.attack.string;
  if (res.error) out.error = typeof res.error === 'string' ? res.error : res.error.kind;
  process.stdout.write(JSON.stringify(out) + '\n');
}
