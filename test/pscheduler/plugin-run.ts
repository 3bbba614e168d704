// pScheduler's own checks of expanded templates from the command line (no instance needed, only the built prefix):
//   node out/test/pscheduler/plugin-run.js [--full] [--per-group N] [--out FILE] [FILE...]
// Without FILEs: the templates the live suite compares (plugin-compare.ts comparedTemplates; --full adds the
// official examples and test/fixtures/migration/). Prints one line per template and each disagreement.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { comparedTemplates, compareTemplate, comparisonLine, disagreementText } from './plugin-compare';
import { PluginChecker } from './plugin-checks';

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const valued = new Set(['--per-group', '--out']);
  const files = process.argv
    .slice(2)
    .filter((a, i, all) => !a.startsWith('--') && !valued.has(all[i - 1] ?? ''))
    .map((f) => resolve(f));
  const perGroup = Number(argValue('--per-group') ?? 2);
  const checker = new PluginChecker();
  const t0 = Date.now();
  const results = [];
  for (const f of files.length ? files : comparedTemplates(process.argv.includes('--full'))) {
    const c = await compareTemplate(checker, f, perGroup);
    results.push(c);
    console.log(comparisonLine(c));
    for (const d of c.disagreements) console.log(`  ${disagreementText(d)}`);
  }
  console.log(`${checker.runs} plug-in runs in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const out = argValue('--out');
  if (out) {
    mkdirSync(dirname(resolve(out)), { recursive: true });
    writeFileSync(resolve(out), JSON.stringify(results, null, 1));
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
