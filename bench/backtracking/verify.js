// Times relang's verdicts on the corpus in node: a vulnerable one on its own attack (the
// pumps grown as tests/backtracking/time.js grows them, then tripled; superlinear when the
// time grows faster than n^1.6), a safe one on 3,000 and 9,000 repetitions of plain pumps.
// Usage, after the corpus comparison wrote its verdicts (with each attack's parts):
//   node bench/backtracking/verify.js ids.txt > target/backtracking/verify.jsonl
// where ids.txt names one pattern id a line.
'use strict';
const fs = require('fs');
const path = require('path');
const { growth } = require(path.join(__dirname, '../../tests/backtracking/time.js'));

// As bench/backtracking/referee.js judges a timing.
function judge(timing) {
  const [k1, t1, k2, t2] = timing.split(' ').map(Number);
  if (!(t1 >= 0.015)) return { growth: 'flat', timing };
  const degree = Math.log(t2 / t1) / Math.log(k2 / k1);
  return { growth: degree > 1.6 ? 'superlinear' : 'linear', degree: +degree.toFixed(2), timing };
}

// The pumps a safe pattern is timed on: characters that open, close or repeat in the
// corpus's patterns.
const PLAIN_PUMPS = ['a', '"', "'", '`', '\\', '\n', ' ', '#', '=', '-', '!', '<', '{', '0',
  '~', '*', '"a', '`a', '\n '];

function cpuSeconds(run) {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

function readLines(file) {
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

const root = path.join(__dirname, '../..');
const patterns = {};
for (const file of ['bench/backtracking/corpus.jsonl', 'bench/backtracking/advisories.jsonl']) {
  for (const line of readLines(path.join(root, file))) {
    const entry = JSON.parse(line);
    patterns[entry.id] = entry.pattern;
  }
}
const verdicts = {};
for (const line of readLines(path.join(root, 'target/backtracking/relang.jsonl'))) {
  const entry = JSON.parse(line);
  verdicts[entry.id] = entry;
}
for (const id of readLines(process.argv[2])) {
  const verdict = verdicts[id];
  const regex = new RegExp(patterns[id]);
  const out = { id, verdict: verdict.verdict, detail: verdict.detail };
  try {
    if (verdict.verdict === 'vulnerable') {
      const [prefix, pump, suffix] = verdict.attack_parts;
      const kind = verdict.detail === 'exponential' ? 'exp' : 'poly';
      const textOf = (k) => prefix + pump.repeat(k) + suffix;
      out.timing = judge(growth((text) => regex.test(text), textOf, kind));
    } else if (verdict.verdict === 'safe') {
      for (const pump of PLAIN_PUMPS) {
        const time = (k) => Math.min(...[0, 1].map(() => cpuSeconds(() => regex.test(pump.repeat(k)))));
        const [t1, t2] = [time(3000), time(9000)];
        if (!out.slowest || t2 > out.slowest.t2) out.slowest = { pump, t1, t2 };
      }
    }
  } catch (err) {
    out.error = String(err);
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
