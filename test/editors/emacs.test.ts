// Emacs (Debian's, batch) with eglot (test/editors/emacs/init.el) runs the language server installed from the packed
// tarball: diagnostics arrive in flymake, every code lens's command runs through the server with
// eglot-execute-command (eglot shows no lenses), and the "Change to" quick fix edits only the misspelt name.
// test/editors/emacs/harness.el drives the editor and reports what it saw.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../fixtures';
import { EDITOR_TEMPLATE, EDITOR_TEMPLATE_FIXED, misspeltColumns, runEditorSession } from './editor-session';
import { packAndInstall, type PackedServer } from './packed-server';

const here = join(repoRoot(), 'test', 'editors', 'emacs');

interface Seen {
  error?: string;
  version: string;
  diagnostics: { line: number; text: string }[];
  lenses: { title: string; command: string; shown: string; message: string; logged: string; text: string | null }[];
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

test('every code lens’s command runs through the server, which tells Emacs where its result is', () => {
  const byTitle = (title: string) => {
    const l = seen.lenses.find((x) => x.title === title);
    assert.ok(l, `${title} in ${seen.lenses.map((x) => x.title).join(' | ')}`);
    return l;
  };
  assert.equal(
    seen.lenses.length,
    8,
    'a count, a schedule and a Dashboard lens per task, the archive’s, and the Grafana lens of the task whose group exists',
  );
  for (const l of seen.lenses) {
    assert.equal(l.shown, 'message', 'eglot 1.9 has no window/showDocument');
    assert.ok(l.logged.includes(l.message), `${l.message} shown in *Messages*: ${l.logged}`);
  }
  const tasks = byTitle('2 tasks for 2 agents');
  assert.equal(tasks.command, 'psconfig.server.showTasks');
  assert.ok(tasks.text?.includes('  throughput  throughput · group mesh-group\n    a.example.net → b.example.net\n'));
  const dashboard = seen.lenses.filter((l) => l.title === 'Dashboard').find((l) => l.message.startsWith('throughput'));
  assert.ok(dashboard?.text?.includes('  b.example.net → a.example.net  [1]\n'), dashboard?.text ?? '');
  const schedule = seen.lenses.find(
    (l) => l.command === 'psconfig.server.showSchedule' && l.message.startsWith('throughput'),
  );
  assert.ok(schedule?.text?.includes('Hosts by exclusive load'), schedule?.text ?? '');
  const grafana = seen.lenses.find((l) => l.command === 'psconfig.server.showGrafana');
  assert.match(grafana?.message ?? '', /^throughput: Grafana: /);
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
