// Neovim (Debian's, headless) with only its built-in LSP client (test/editors/neovim/init.lua) runs the language
// server installed from the packed tarball: diagnostics arrive, the "Change to" quick fix applies to the misspelt name
// alone although Neovim 0.7 sends its range in byte columns, and on the fixed template each code lens runs through
// the server (vim.lsp.codelens.run()). test/editors/neovim/harness.lua drives the editor and reports what it saw.
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

const here = join(repoRoot(), 'test', 'editors', 'neovim');

interface Lens {
  title: string;
  command: string;
  message: string;
  text: string | null;
}

interface Seen {
  error?: string;
  version: { major: number; minor: number; patch: number };
  diagnostics: { code: string; lnum: number; col: number; message: string }[];
  messages: string[];
  /** The throughput task's count lens, run while the other task's group is misspelt. */
  misspelt_count: Lens;
  /** The throughput task's count, schedule and Dashboard lenses and the archive's, run on the fixed template. */
  lenses: Lens[];
  sent: { code: string; range: { start: { line: number; character: number } } }[];
  before: string;
  after: string;
}

let packed: PackedServer;
let seen: Seen;

before(async () => {
  const version = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  assert.equal(version.status, 0, 'Neovim is installed (scripts/setup.sh: apt-get install neovim)');
  packed = packAndInstall();
  seen = await runEditorSession<Seen>(packed, 'nvim', [
    '--headless',
    '-n',
    '-i',
    'NONE',
    '-u',
    join(here, 'init.lua'),
    '-c',
    `luafile ${join(here, 'harness.lua')}`,
  ]);
});
after(() => packed?.remove());

test('Neovim receives the server’s diagnostics', () => {
  console.log(`Neovim ${seen.version.major}.${seen.version.minor}.${seen.version.patch}`);
  const group = seen.diagnostics.find((d) => d.code === 'psconfig/unknown-group');
  assert.ok(group, JSON.stringify(seen.diagnostics));
  assert.match(group.message, /references a group mesh-grop that does not exist/);
  assert.equal(group.lnum, misspeltColumns().line);
});

// While the group is misspelt, pSConfig's agent rejects the whole template (validate_refs): the task whose group
// exists creates no task either.
test('while the group is misspelt, the other task’s count lens says the agent rejects the template', () => {
  const count = seen.misspelt_count;
  assert.equal(count.command, 'psconfig.server.showTasks');
  assert.ok(count.message.startsWith(`${EDITOR_REJECTED} — see `), count.message);
  assert.ok(count.text?.includes(`\n${EDITOR_REJECTED}`), count.text ?? '');
  assert.ok(!count.text?.includes('throughput · group'), count.text ?? '');
});

test('each code lens runs through the server and says where its result is', () => {
  // The lenses of the fixed template (after "Change to"), where both tasks expand: FIXED_COUNT_TITLE.
  const [tasks, schedule, dashboard, archive] = seen.lenses;
  assert.equal(tasks.title, FIXED_COUNT_TITLE);
  assert.equal(tasks.command, 'psconfig.server.showTasks');
  assert.match(
    tasks.message,
    /^throughput: 2 tasks for 2 agents — see \/.*\/mesh\.psconfig\.json-[0-9a-f]{8}\.tasks\.txt$/,
  );
  assert.ok(
    tasks.text?.includes('  throughput  throughput · group mesh-group\n    a.example.net → b.example.net'),
    tasks.text ?? '',
  );
  // (Neovim's line has four lenses: vim.ui.select chose each by its title.)
  assert.equal(schedule.command, 'psconfig.server.showSchedule');
  assert.match(schedule.message, /\.schedule\.txt$/);
  assert.ok(schedule.text?.includes('Runs a day per task'), schedule.text ?? '');
  assert.equal(dashboard.command, 'psconfig.server.showDashboard');
  assert.ok(dashboard.text?.includes('2 configured directions'), dashboard.text ?? '');
  assert.ok(dashboard.text?.includes('  a.example.net → b.example.net  [1]'), dashboard.text ?? '');
  assert.equal(archive.command, 'psconfig.server.openArchive');
  assert.equal(
    archive.message,
    'archive search for throughput a.example.net → b.example.net — open ' +
      'https://archive.example.net/esmond/perfsonar/archive/?input-source=a.example.net&input-destination=b.example.net&event-type=throughput',
  );
});

test('"Change to" edits only the misspelt name, though Neovim sends the range in byte columns', () => {
  const { utf16, bytes } = misspeltColumns();
  const sent = seen.sent.find((d) => d.code === 'psconfig/unknown-group');
  assert.ok(sent);
  // What Neovim 0.7–0.10 do: the column it sends back is the byte column, not the UTF-16 one it was given.
  assert.equal(sent.range.start.character, bytes);
  assert.notEqual(bytes, utf16);
  assert.equal(seen.before, EDITOR_TEMPLATE.replace(/\n$/, ''));
  assert.equal(seen.after, EDITOR_TEMPLATE_FIXED.replace(/\n$/, ''));
});
