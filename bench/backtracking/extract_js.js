// Regex literals and RegExp("literal") calls of installed npm packages, one JSON line each.
const fs = require('fs'), path = require('path');
const acorn = require('./npm/node_modules/acorn');
const root = path.join(__dirname, 'npm', 'node_modules');
const pkgs = process.argv.slice(2);
const seen = new Set();
function files(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) { if (!['test', 'tests', 'node_modules', '__tests__'].includes(e.name)) files(p, out); }
    else if (/\.(c|m)?js$/.test(e.name) && !/\.min\.js$/.test(e.name)) out.push(p);
  }
  return out;
}
function walk(node, f) {
  if (!node || typeof node.type !== 'string') return;
  f(node);
  for (const k in node) {
    const v = node[k];
    if (Array.isArray(v)) v.forEach(c => c && typeof c.type === 'string' && walk(c, f));
    else if (v && typeof v.type === 'string') walk(v, f);
  }
}
for (const pkg of pkgs) {
  const version = require(path.join(root, pkg, 'package.json')).version;
  for (const file of files(path.join(root, pkg), []).sort()) {
    const src = fs.readFileSync(file, 'utf8');
    let ast;
    for (const sourceType of ['module', 'script']) {
      try { ast = acorn.parse(src, { ecmaVersion: 'latest', sourceType, locations: true, allowHashBang: true }); break; } catch (e) {}
    }
    if (!ast) continue;
    const rel = path.relative(path.join(root, pkg), file);
    walk(ast, n => {
      let pattern, flags;
      if (n.type === 'Literal' && n.regex) { pattern = n.regex.pattern; flags = n.regex.flags; }
      else if ((n.type === 'NewExpression' || n.type === 'CallExpression') && n.callee.type === 'Identifier' && n.callee.name === 'RegExp'
        && n.arguments[0] && n.arguments[0].type === 'Literal' && typeof n.arguments[0].value === 'string') {
        pattern = n.arguments[0].value;
        flags = n.arguments[1] && n.arguments[1].type === 'Literal' ? String(n.arguments[1].value) : '';
      } else return;
      const key = pattern + '\u0000' + flags;
      if (seen.has(key)) return;
      seen.add(key);
      console.log(JSON.stringify({ dialect: 'js', pattern, flags, source: `npm ${pkg}@${version} ${rel}:${n.loc.start.line}` }));
    });
  }
}
