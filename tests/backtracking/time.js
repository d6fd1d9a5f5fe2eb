// Times node's RegExp on attack strings (see README.md).
'use strict';
const readline = require('readline');

const MIN_SECONDS = 0.02;
const MAX_PUMPS = 1 << 22;
const MAX_EXP_PUMPS = 64;

function timed(run, text) {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = process.hrtime.bigint();
    run(text);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
  }
  return best;
}

// Grows the pumps k until one run on `textOf(k)` takes MIN_SECONDS (k + 1 at a time for
// `exp`, doubling for `poly`), then times k2 = k + 4 (`exp`) or 3k: `k t1 k2 t2`.
function growth(run, textOf, kind) {
  let k = kind === 'exp' ? 1 : 8;
  let elapsed;
  for (;;) {
    elapsed = timed(run, textOf(k));
    if (elapsed >= MIN_SECONDS || k >= (kind === 'exp' ? MAX_EXP_PUMPS : MAX_PUMPS)) break;
    k = kind === 'exp' ? k + 1 : k * 2;
  }
  const k2 = kind === 'exp' ? k + 4 : 3 * k;
  const t2 = timed(run, textOf(k2));
  return `${k} ${elapsed.toFixed(6)} ${k2} ${t2.toFixed(6)}`;
}

function runCase(mode, kind, pattern, prefix, pump, suffix) {
  let regex;
  try {
    regex = new RegExp(mode === 'full' ? `^(?:${pattern})$` : pattern);
  } catch (err) {
    return 'invalid';
  }
  return growth((text) => regex.test(text), (k) => prefix + pump.repeat(k) + suffix, kind);
}

const decode = (text) => Buffer.from(text, 'base64').toString('utf8');

if (require.main === module) {
  const rl = readline.createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    const parts = line.split(' ');
    if (parts[0] !== 'C') return;
    const [mode, kind] = parts.slice(1, 3);
    const [pattern, prefix, pump, suffix] = parts.slice(3, 7).map(decode);
    let answer;
    try {
      answer = runCase(mode, kind, pattern, prefix, pump, suffix);
    } catch (err) {
      // V8 runs out of backtracking stack on long inputs of some patterns.
      answer = `error ${String(err).replace(/\s+/g, ' ')}`;
    }
    process.stdout.write(answer + '\n');
  });
}

// The referee of bench/backtracking/referee.js times other attacks the same way.
module.exports = { growth };
