// A live run from the command line, its results written as JSON (the test suite does the same run and asserts):
//   node out/test/pscheduler/run.js [--full] [--observe SECONDS] [--out FILE]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { runLive } from './live-run';
import { SCENARIOS } from './scenarios';

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const full = process.argv.includes('--full');
  const observe = Number(argValue('--observe') ?? 600);
  if (!(observe >= 60 && observe <= 7200)) throw new Error('--observe: 60 to 7200 seconds');
  const out = resolve(argValue('--out') ?? 'test-results/pscheduler-live/results.json');
  const chosen = SCENARIOS.filter((s) => full || s.ci);
  const result = await runLive(chosen, {
    observeSeconds: observe,
    log: (l) => console.log(`[${new Date().toISOString()}] ${l}`),
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 1));
  console.log(`written ${out}`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
