// The referee of the corpus comparison: for each pattern on which relang and recheck
// disagree and one of them says vulnerable, times the attack each gives in node (the
// pumps grown as tests/backtracking/time.js grows them) and says whether the time grows
// faster than the input. Usage, after the corpus comparison wrote its disagreements:
//   NODE_PATH=<dir with recheck@4.5.0> node bench/backtracking/referee.js \
//     target/backtracking/disagreements.jsonl > target/backtracking/referee.jsonl
// Without recheck installed, only relang's attacks are timed.
'use strict';
const fs = require('fs');
const path = require('path');
const { growth } = require(path.join(__dirname, '../../tests/backtracking/time.js'));

let checkSync = null;
try {
  ({ checkSync } = require('recheck'));
} catch (err) {
  process.stderr.write('SKIPPED recheck: not installed (npm install recheck@4.5.0)\n');
}

// The time grows faster than the input when tripling the pumps (or two more, `exp`)
// multiplies it by more than 3^1.6 (a linear time triples), once past the timing floor.
function judge(timing) {
  const [k1, t1, k2, t2] = timing.split(' ').map(Number);
  if (!(t1 >= 0.015)) return { growth: 'flat', timing };
  const degree = Math.log(t2 / t1) / Math.log(k2 / k1);
  return { growth: degree > 1.6 ? 'superlinear' : 'linear', degree: +degree.toFixed(2), timing };
}

function referee(pattern, flags, kind, textOf) {
  const regex = new RegExp(pattern, flags.replace(/[gy]/g, ''));
  try {
    return judge(growth((text) => regex.test(text), textOf, kind));
  } catch (err) {
    return { growth: 'error', error: String(err) };
  }
}

const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
for (const line of lines) {
  const entry = JSON.parse(line);
  if (entry.relang !== 'vulnerable' && entry.recheck !== 'vulnerable') continue;
  const out = { id: entry.id, relang: entry.relang, recheck: entry.recheck };
  const flags = entry.flags || '';
  const ours = entry.relang_attack_parts;
  if (ours) {
    const [prefix, pump, suffix] = ours;
    const kind = entry.relang_detail === 'exponential' ? 'exp' : 'poly';
    out.relang_timing = referee(entry.pattern, flags, kind, (k) => prefix + pump.repeat(k) + suffix);
  }
  if (entry.recheck === 'vulnerable' && checkSync) {
    // recheck's attacks are fuzzed: run it again for their pumps (its verdict may change).
    const res = checkSync(entry.pattern, flags, { timeout: 5000 });
    out.recheck_rerun = res.status;
    if (res.attack && res.attack.pumps) {
      const kind = res.complexity.type === 'exponential' ? 'exp' : 'poly';
      const { pumps, suffix } = res.attack;
      const textOf = (k) => pumps.map((p) => p.prefix + p.pump.repeat(k)).join('') + suffix;
      out.recheck_timing = referee(entry.pattern, flags, kind, textOf);
    }
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
