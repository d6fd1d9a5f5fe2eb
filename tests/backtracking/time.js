// Times node's RegExp on attack strings (see README.md).
'use strict';
const readline = require('readline');

const MIN_SECONDS = 0.05;
const MAX_PUMPS = 1 << 22;
const MAX_EXP_PUMPS = 64;
const ROUNDS = 3;

// The process's CPU time, not the wall clock: time spent waiting for a core on a busy
// machine is not the engine's.
function cpuSeconds() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

function timed(run, text) {
  const start = cpuSeconds();
  run(text);
  return cpuSeconds() - start;
}

// Grows the pumps k until one run on `textOf(k)` takes MIN_SECONDS (k + 1 at a time for
// `exp`, doubling for `poly`), then times k2 = k + 2 (`exp`) or 3k, each the fastest of
// ROUNDS runs taken in turn with the other's: `k t1 k2 t2`.
function growth(run, textOf, kind) {
  let k = kind === 'exp' ? 1 : 8;
  while (timed(run, textOf(k)) < MIN_SECONDS && k < (kind === 'exp' ? MAX_EXP_PUMPS : MAX_PUMPS)) {
    k = kind === 'exp' ? k + 1 : k * 2;
  }
  const k2 = kind === 'exp' ? k + 2 : 3 * k;
  const [text1, text2] = [textOf(k), textOf(k2)];
  let [t1, t2] = [Infinity, Infinity];
  for (let round = 0; round < ROUNDS; round++) {
    t1 = Math.min(t1, timed(run, text1));
    t2 = Math.min(t2, timed(run, text2));
  }
  return `${k} ${t1.toFixed(6)} ${k2} ${t2.toFixed(6)}`;
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
