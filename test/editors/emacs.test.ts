// Emacs (Debian's, batch) with eglot (test/editors/emacs/init.el) runs the language server installed from the packed
// tarball: diagnostics arrive in flymake, the "Change to" quick fix edits only the misspelt name, and on the fixed
// template every code lens's command runs through the server with eglot-execute-command (eglot shows no lenses).
// test/editors/emacs/harness.el drives the editor and reports what it saw.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../fixtures';
import {
  EDITOR_REJECTED,
  EDITOR_TEMPLATE,
  EDITOR_TEMPLATE_FIXED,
  FIXED_COUNT_TITLE,
  misspeltColumns,
  runEditorSession,
} from './editor-session';
import { packAndInstall, type PackedServer } from './packed-server';

const here = join(repoRoot(), 'test', 'editors', 'emacs');

interface Lens {
  title: string;
  command: string;
  shown: string;
  message: string;
  logged: string;
  text: string | null;
}

interface Seen {
  error?: string;
  version: string;
  diagnostics: { line: number; text: string }[];
  /** The throughput task's count lens, run while the other task's group is misspelt. */
  misspeltCount: Lens;
  /** Every code lens of the fixed template, run. */
  lenses: Lens[];
  before: string;
  after: string;
}

let packed: PackedServer;
let seen: Seen;

before(async () => {
  const version = spawnSync('emacs', ['--version'], { encoding: 'utf8' });
  assert.equal(version.status, 0, 'Emacs is installed (scripts/setup.sh: apt-get install emacs-nox elpa-eglot)');
  packed = packAndInstall();
  seen = await runEditorSession<Seen>(packed, 'emacs', [
    '--batch',
    '--no-init-file',
    '-l',
    join(here, 'init.el'),
    '-l',
    join(here, 'harness.el'),
  ]);
});
after(() => packed?.remove());

test('Emacs (eglot) receives the server’s diagnostics in flymake', () => {
  console.log(`Emacs ${seen.version}`);
  const group = seen.diagnostics.find((d) => d.text.includes('[psconfig/unknown-group]'));
  assert.ok(group, JSON.stringify(seen.diagnostics));
  assert.match(group.text, /references a group mesh-grop that does not exist/);
  assert.equal(group.line, misspeltColumns().line + 1);
});

// While the group is misspelt, pSConfig's agent rejects the whole template (validate_refs): the task whose group
// exists creates no task either.
test('while the group is misspelt, the other task’s count lens says the agent rejects the template', () => {
  const count = seen.misspeltCount;
  assert.equal(count.command, 'psconfig.server.showTasks');
  assert.ok(count.message.startsWith(`${EDITOR_REJECTED} — see `), count.message);
  assert.ok(count.text?.includes(`\n${EDITOR_REJECTED}\n`), count.text ?? '');
  assert.ok(!count.text?.includes('throughput · group'), count.text ?? '');
});

test('while the group is misspelt, the other task’s count lens title says the agent rejects the template', () => {
  assert.match(seen.misspeltCount.title, /^cannot expand: pSConfig's agent rejects /);
});

test('every code lens’s command runs through the server, which tells Emacs where its result is', () => {
  // The lenses of the fixed template (after "Change to"), where both tasks expand (FIXED_COUNT_TITLE each). Per task
  // a count, a schedule, a Dashboard and a Grafana lens (both groups now exist and both run throughput in a mesh,
  // so Grafana's agent view has a verdict for each): 2 × 4 = 8, and the esmond archive's lens: 9.
  assert.deepEqual(
    seen.lenses.filter((l) => l.command === 'psconfig.server.showTasks').map((l) => l.title),
    [FIXED_COUNT_TITLE, FIXED_COUNT_TITLE],
  );
  assert.equal(seen.lenses.length, 9, seen.lenses.map((l) => l.title).join(' | '));
  for (const l of seen.lenses) {
    assert.equal(l.shown, 'message', 'eglot 1.9 has no window/showDocument');
    assert.ok(l.logged.includes(l.message), `${l.message} shown in *Messages*: ${l.logged}`);
  }
  const ofTask = (command: string) => {
    const l = seen.lenses.find((x) => x.command === command && x.message.startsWith('throughput:'));
    assert.ok(l, `${command} of throughput in ${seen.lenses.map((x) => x.message).join(' | ')}`);
    return l;
  };
  const tasks = ofTask('psconfig.server.showTasks');
  assert.equal(tasks.title, FIXED_COUNT_TITLE);
  assert.ok(
    tasks.text?.includes('  throughput  throughput · group mesh-group\n    a.example.net → b.example.net\n'),
    tasks.text ?? '',
  );
  const dashboard = ofTask('psconfig.server.showDashboard');
  assert.equal(dashboard.title, 'Dashboard');
  assert.ok(dashboard.text?.includes('  b.example.net → a.example.net  [1]\n'), dashboard.text ?? '');
  const schedule = ofTask('psconfig.server.showSchedule');
  assert.ok(schedule.text?.includes('Hosts by exclusive load'), schedule.text ?? '');
  const grafana = ofTask('psconfig.server.showGrafana');
  assert.match(grafana.message, /^throughput: Grafana: /);
  const archive = seen.lenses.find((l) => l.command === 'psconfig.server.openArchive');
  assert.match(
    archive?.message ?? '',
    /open https:\/\/archive\.example\.net\/esmond\/perfsonar\/archive\/\?input-source=/,
  );
});

test('"Change to" edits only the misspelt name', () => {
  assert.equal(seen.before, EDITOR_TEMPLATE);
  assert.equal(seen.after, EDITOR_TEMPLATE_FIXED);
});
