// Emacs (Debian's, batch) with eglot (test/editors/emacs/init.el) runs the language server installed from the packed
// tarball: diagnostics arrive in flymake, every code lens's command runs through the server with
// eglot-execute-command (eglot shows no lenses), and the "Change to" quick fix edits only the misspelt name.
// test/editors/emacs/harness.el drives the editor and reports what it saw.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../fixtures';
import { EDITOR_TEMPLATE, EDITOR_TEMPLATE_FIXED, misspeltColumns, writeEditorTemplate } from './editor-template';
import { packAndInstall, type PackedServer } from './packed-server';

const here = join(repoRoot(), 'test', 'editors', 'emacs');
const JQ = process.env.JQ_PATH || '/usr/bin/jq';
const EMACS_TIMEOUT_MS = 240_000;

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
  const work = join(packed.dir, 'emacs');
  const template = writeEditorTemplate(join(work, 'templates'));
  const result = join(work, 'result.json');
  const home = join(work, 'home');
  mkdirSync(home, { recursive: true });
  const env = {
    PATH: [dirname(packed.bin), dirname(process.execPath), dirname(JQ), '/usr/bin', '/bin'].join(':'),
    HOME: home,
    PSCONFIG_LANGUAGE_SERVER: packed.bin,
    PSCONFIG_TEMPLATE: template,
    PSCONFIG_RESULT: result,
  };
  const emacs = spawn(
    'emacs',
    ['--batch', '--no-init-file', '-l', join(here, 'init.el'), '-l', join(here, 'harness.el')],
    { cwd: dirname(template), env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  emacs.stdout.on('data', (b: Buffer) => (output += b.toString()));
  emacs.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => emacs.kill('SIGKILL'), EMACS_TIMEOUT_MS);
    emacs.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  assert.equal(code, 0, `emacs exited with ${code}: ${output.slice(-2000)}`);
  seen = JSON.parse(readFileSync(result, 'utf8')) as Seen;
  assert.equal(seen.error, undefined, `the harness failed: ${seen.error}\n${output.slice(-2000)}`);
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
  assert.equal(seen.lenses.length, 7, 'a count, a schedule and a Dashboard lens per task, and the archive’s');
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
