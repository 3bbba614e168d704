// A live run from the command line, its results written as JSON (the test suite does the same run and asserts):
//   node out/test/pscheduler/run.js [--full] [--observe SECONDS] [--out FILE]
//   node out/test/pscheduler/run.js --posts N     only the probe instance: N timed task POSTs, one after another
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { prepareHarness, startInstances } from './harness/instances';
import { PROBE, runLive, timePost } from './live-run';
import { HORIZON, SCENARIOS } from './scenarios';

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** POST time on one instance with nothing else of the harness running (the model's postSeconds on a quiet host). */
async function postsOnly(n: number): Promise<void> {
  if (!(n >= 1 && n <= 50)) throw new Error('--posts: 1 to 50');
  const harness = await prepareHarness();
  const group = await startInstances({ instances: [PROBE], horizon: HORIZON });
  try {
    for (let i = 0; i < n; i++) {
      const p = await timePost(group.instances[0], 'idle');
      console.log(`POST ${p.seconds.toFixed(2)} s at load ${p.load1.toFixed(2)}${p.error ? ` (${p.error})` : ''}`);
    }
  } finally {
    await group.stop();
    await harness.stop();
  }
}

async function main(): Promise<void> {
  const posts = argValue('--posts');
  if (posts !== undefined) return postsOnly(Number(posts));
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
