// Extension activation: production bundles built into a temporary directory, then, in fresh processes, the time
// to load dist/client.js and run activate() (activation-harness.ts, against a stand-in `vscode`), the first use of
// the archive explorer and the first load of the language client. Baseline in the same run: the same bundles
// required up front, as one client bundle held them all before they were split out.   npm run bench -- activation
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../test/fixtures';

interface Sample {
  loadMs: number;
  activateMs: number;
  explorerMs: number;
  languageClientMs: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;

export function run(): void {
  const root = repoRoot();
  const dist = mkdtempSync(join(tmpdir(), 'psconfig-activation-'));
  try {
    execFileSync(process.execPath, ['scripts/build.mjs', '--production', `--dist=${dist}`], { cwd: root });
    const size = (f: string): number => statSync(join(dist, f)).size;
    const lazy = ['language-client.js', 'archive-explorer.js'];
    const all = size('client.js') + lazy.reduce((n, f) => n + size(f), 0);
    console.log(
      `bundles (minified): client.js ${kb(size('client.js'))} loaded at activation; ${lazy
        .map((f) => `${f} ${kb(size(f))}`)
        .join(', ')} on first use (all together ${kb(all)}, what client.js held before)`,
    );
    const harness = join(__dirname, 'activation-harness.js');
    const runs = 9;
    const samples: Record<'split' | 'eager', Sample[]> = { split: [], eager: [] };
    for (let i = 0; i < runs; i++) {
      for (const mode of ['eager', 'split'] as const) {
        const out = execFileSync(process.execPath, [harness, dist, ...(mode === 'eager' ? ['eager'] : [])], {
          encoding: 'utf8',
        });
        samples[mode].push(JSON.parse(out) as Sample);
      }
    }
    const row = (label: string, pick: (s: Sample) => number): string => {
      const e = median(samples.eager.map(pick));
      const s = median(samples.split.map(pick));
      return `${label.padEnd(44)} ${e.toFixed(1).padStart(7)} ms  ${s.toFixed(1).padStart(7)} ms`;
    };
    console.log(`medians of ${runs} fresh processes each       all loaded at activation  lazy`);
    console.log(row('load client bundle(s) + activate()', (s) => s.loadMs + s.activateMs));
    console.log(row('  of which activate()', (s) => s.activateMs));
    console.log(row('first use of the archive explorer view', (s) => s.explorerMs));
    console.log(row('first template (language client loaded)', (s) => s.languageClientMs));
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
}
