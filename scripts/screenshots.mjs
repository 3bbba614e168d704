// `npm run screenshots`: the README's pictures, made by the end-to-end suite in a real VS Code.
// Runs the UI pass of `npm run test:e2e` (E2E_PASSES=ui: package, install the .vsix into code-server, drive the
// workbench with Playwright and Debian's chromium; every check saves a screenshot under test-results/e2e/), then
// copies the chosen ones to docs/images/ under stable names. Nothing is copied unless every chosen picture was made
// by a check that passed, so docs/images/ is always one consistent set. Commit docs/images/ afterwards.
//   npm run screenshots              run the UI pass, then copy
//   npm run screenshots -- --copy    copy from the last run's test-results/e2e/ only
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shots = join(root, 'test-results/e2e');
const images = join(root, 'docs/images');

/** Screenshot of the UI pass (test/e2e/host/ui-pass.ts) → picture in docs/images/ (the README links these names). */
const CHOSEN = {
  '03-quick-fix.png': 'quick-fix.png',
  '03-completion.png': 'completion.png',
  '04-task-json.png': 'tasks-view.png',
  '04-task-changes.png': 'task-changes.png',
  '05-archive-explorer.png': 'archive-explorer.png',
  '08-dashboard-hover.png': 'mesh-dashboard.png',
  '10-quick-fix-menu.png': 'migration-quick-fix.png',
  '12-schedule-timeline.png': 'schedule-timeline.png',
  '13-hosts-view.png': 'hosts-view.png',
  '14-timeline-real-runs.png': 'timeline-real-runs.png',
};

if (!process.argv.includes('--copy')) {
  const run = spawnSync('bash', [join(root, 'test/e2e/run-code-server.sh')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, E2E_PASSES: 'ui' },
  });
  if (run.status !== 0) console.error(`screenshots: the UI pass failed (exit ${run.status}); checking what it made`);
}

const missing = Object.keys(CHOSEN).filter((shot) => !existsSync(join(shots, shot)));
if (missing.length) {
  console.error(`screenshots: not made by a passing check: ${missing.join(', ')} (see ${shots}); nothing copied`);
  process.exit(1);
}
mkdirSync(images, { recursive: true });
for (const [shot, picture] of Object.entries(CHOSEN)) {
  copyFileSync(join(shots, shot), join(images, picture));
  console.log(`screenshots: ${shot} → docs/images/${picture} (${statSync(join(images, picture)).size} bytes)`);
}
