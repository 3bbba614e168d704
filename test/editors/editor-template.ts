// The template the real-editor tests open: a task whose group is misspelt on a line where non-ASCII text comes
// before the name (a "Change to" fix whose range an editor counts in bytes), and a task that expands, with an
// esmond archive (its count, Dashboard and archive lenses).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
