// `npm run bench`: runs every bench/<name>.bench.ts (compiled to out/bench), or only those named on the command line.
// Each benchmark prints its own figures and ratios against a baseline measured in the same run.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

interface BenchModule {
  run(): void | Promise<void>;
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const names = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.js'))
    .map((f) => f.slice(0, -'.bench.js'.length))
    .filter((n) => only.length === 0 || only.includes(n))
    .sort();
  for (const name of names) {
    console.log(`\n=== ${name}`);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(join(__dirname, `${name}.bench.js`)) as BenchModule;
    await mod.run();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
