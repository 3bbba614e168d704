// The real-editor tests' session (runEditorSession) and the template they open: a task whose group is misspelt on a
// line where non-ASCII text comes before the name (a "Change to" fix whose range an editor counts in bytes), and a
// task with an esmond archive. While the group is misspelt pSConfig's agent rejects the whole template (validate_refs),
// so no task expands; once "Change to" has fixed it, both do (their count, schedule, Dashboard, Grafana and archive
// lenses).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PackedServer } from './packed-server';

export const EDITOR_TEMPLATE = `{
  "archives": {
    "central": { "archiver": "esmond", "data": { "url": "https://archive.example.net/esmond/perfsonar/archive/", "measurement-agent": "{% scheduled_by_address %}" } }
  },
  "addresses": { "a": { "address": "a.example.net" }, "b": { "address": "b.example.net" } },
  "groups": { "mesh-group": { "type": "mesh", "addresses": [ { "name": "a" }, { "name": "b" } ] } },
  "tests": { "t": { "type": "throughput", "spec": { "source": "{% address[0] %}", "dest": "{% address[1] %}", "duration": "PT10S" } } },
  "tasks": {
    "réseau-café ☕": { "group": "mesh-grop", "test": "t" },
    "throughput": { "group": "mesh-group", "test": "t", "archives": [ "central" ] }
  }
}
`;

/** The template with the misspelt group corrected, and nothing else changed. */
export const EDITOR_TEMPLATE_FIXED = EDITOR_TEMPLATE.replace('"mesh-grop"', '"mesh-group"');

/** What the count lens of either task says, run, while the group is misspelt: the agent creates no task at all. */
export const EDITOR_REJECTED =
  "cannot expand: pSConfig's agent rejects this template, so it creates no task (psconfig_ref_validation_error): " +
  'Task réseau-café ☕ references a group mesh-grop that does not exist.';

/**
 * The count lens title of each task of the fixed template, derived by hand: each runs the throughput test over
 * mesh-group {a, b}, whose 2 directions (a → b and b → a) are each created by the agent of its source
 * (scheduled_by 0): 2 tasks, for 2 agents.
 */
export const FIXED_COUNT_TITLE = '2 tasks for 2 agents';

/** UTF-16 and UTF-8 byte columns of the misspelt name (inside the quotes) on its line. */
export function misspeltColumns(): { line: number; utf16: number; bytes: number } {
  const lines = EDITOR_TEMPLATE.split('\n');
  const line = lines.findIndex((l) => l.includes('"mesh-grop"'));
  const utf16 = lines[line].indexOf('"mesh-grop"') + 1;
  return { line, utf16, bytes: Buffer.byteLength(lines[line].slice(0, utf16), 'utf8') };
}

/** Writes the template as `<dir>/mesh.psconfig.json`; its path. */
export function writeEditorTemplate(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'mesh.psconfig.json');
  writeFileSync(path, EDITOR_TEMPLATE);
  return path;
}

/**
 * One headless editor session against the packed server: the template written to a scratch folder, the editor
 * started there with a private HOME (and XDG folders), PATH holding the installed binary, node and jq, and
 * PSCONFIG_LANGUAGE_SERVER / PSCONFIG_TEMPLATE / PSCONFIG_RESULT for its harness. Resolves with what the harness
 * wrote to PSCONFIG_RESULT; fails with the editor's output when it exits badly or its harness reports an error.
 */
export async function runEditorSession<Seen extends { error?: string }>(
  packed: PackedServer,
  editor: string,
  args: string[],
  timeoutMs = 240_000,
): Promise<Seen> {
  const work = join(packed.dir, editor);
  const template = writeEditorTemplate(join(work, 'templates'));
  const result = join(work, 'result.json');
  const home = join(work, 'home');
  mkdirSync(home, { recursive: true });
  const jq = process.env.JQ_PATH || '/usr/bin/jq';
  const env = {
    PATH: [dirname(packed.bin), dirname(process.execPath), dirname(jq), '/usr/bin', '/bin'].join(':'),
    HOME: home,
    // The server's lens files go here (an editor that kills it at exit leaves them: the scratch folder goes too).
    TMPDIR: work,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CACHE_HOME: join(home, 'cache'),
    PSCONFIG_LANGUAGE_SERVER: packed.bin,
    PSCONFIG_TEMPLATE: template,
    PSCONFIG_RESULT: result,
  };
  const child = spawn(editor, args, { cwd: dirname(template), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  assert.equal(code, 0, `${editor} exited with ${code}: ${output.slice(-2000)}`);
  const seen = JSON.parse(readFileSync(result, 'utf8')) as Seen;
  assert.equal(seen.error, undefined, `the harness failed: ${seen.error}\n${output.slice(-2000)}`);
  return seen;
}
