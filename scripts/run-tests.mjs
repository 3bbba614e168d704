// Runs the node:test suites compiled to out/test (see scripts/build.mjs --tests).
//   node scripts/run-tests.mjs            every *.test.js under out/test except out/test/e2e (those run inside VS Code)
//   node scripts/run-tests.mjs unit lsp   only the named folders of out/test
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wanted = process.argv.slice(2);
const dirs = wanted.length ? wanted : readdirSync(join(root, 'out/test')).filter((d) => d !== 'e2e');
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.test.js')) files.push(p);
  }
};
for (const d of dirs) {
  const p = join(root, 'out/test', d);
  if (existsSync(p) && statSync(p).isDirectory()) walk(p);
}
if (files.length === 0) {
  console.error('no test files found under out/test for', dirs.join(' '));
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--enable-source-maps', '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(r.status ?? 1);
