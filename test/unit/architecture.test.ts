// ARCHITECTURE.md's rooms table, enforced on the real imports of every source file: each room imports only what its
// "may import" column lists (besides its own files), and no source file imports itself through a cycle. The table
// is read from ARCHITECTURE.md itself, so the document and this test cannot drift apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../fixtures';

const root = repoRoot();

/** One allowed import of a room: a folder, a file, a package (or package glob), or node built-ins. */
interface Allowance {
  kind: 'path' | 'package' | 'builtins';
  /** Repository-relative folder (ending in `/`) or file for paths; the name (may end in `*`) for packages. */
  target: string;
  /** `(only in \`provider.ts\`)`: the importing file's name must be one of these. */
  onlyIn?: string[];
  /** `(types and pure helpers)`: the imported file must not import `vscode` itself. */
  pureOnly?: boolean;
}

interface Room {
  /** Repository-relative folder (ending in `/`) or file. */
  path: string;
  allowed: Allowance[];
}

/** The rooms table of ARCHITECTURE.md (rows for `test/` and `bench/` are not rooms of the product). */
function readRooms(): Room[] {
  const doc = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
  const table = doc.slice(doc.indexOf('## Rooms'));
  const rooms: Room[] = [];
  for (const line of table.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const cells = line.split(' | ').map((c) => c.replace(/^\|\s*|\s*\|$/g, '').trim());
    assert.equal(cells.length, 3, `rooms table row without three cells: ${line}`);
    const [folderCell, , mayImport] = cells;
    const paths = [...folderCell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    if (paths.some((p) => p.startsWith('test') || p.startsWith('bench'))) continue;
    const allowed = parseAllowances(mayImport);
    for (const p of paths) rooms.push({ path: p, allowed });
  }
  return rooms;
}

/** `a`, `b/` (only in `x.ts`), node built-ins, nothing → allowances. */
function parseAllowances(cell: string): Allowance[] {
  if (cell === 'nothing') return [];
  const out: Allowance[] = [];
  // Split on commas outside parentheses.
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of cell) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) parts.push(cur.trim());
  for (const part of parts) {
    if (part === 'node built-ins') {
      out.push({ kind: 'builtins', target: '' });
      continue;
    }
    const m = /^`([^`]+)`(?:\s*\((.*)\))?$/.exec(part);
    assert.ok(m, `cannot read the allowance "${part}" in ARCHITECTURE.md`);
    const [, target, note] = m;
    const a: Allowance = { kind: target.includes('/') ? 'path' : 'package', target };
    const only = note && /^only in (.*)$/.exec(note);
    if (only) a.onlyIn = [...only[1].matchAll(/`([^`]+)`/g)].map((x) => x[1]);
    if (note && /pure/.test(note)) a.pureOnly = true;
    out.push(a);
  }
  return out;
}

const SOURCE_DIRS = ['common', 'archive-client', 'pscheduler-client', 'dashboard', 'cli', 'server/src', 'client/src'];

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(root, dir))) {
      const rel = `${dir}/${name}`;
      if (statSync(join(root, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(rel);
    }
  };
  for (const d of SOURCE_DIRS) if (existsSync(join(root, d))) walk(d);
  return out;
}

interface Import {
  specifier: string;
  /** Repository-relative file for relative imports (undefined for packages). */
  file?: string;
}

const importCache = new Map<string, Import[]>();

/** Static, type-only, re-export, dynamic `import()` and `require()` imports, as TypeScript's pre-processor sees them. */
function importsOf(file: string): Import[] {
  let hit = importCache.get(file);
  if (hit) return hit;
  const info = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
  hit = info.importedFiles.map(({ fileName: specifier }) => {
    if (!specifier.startsWith('.')) return { specifier };
    const base = resolve(join(root, dirname(file)), specifier);
    const candidates = [base, `${base}.ts`, join(base, 'index.ts')];
    const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
    assert.ok(found, `${file}: cannot resolve ${specifier}`);
    return { specifier, file: relative(root, found).split(sep).join('/') };
  });
  importCache.set(file, hit);
  return hit;
}

function roomOf(rooms: Room[], file: string): Room | undefined {
  let best: Room | undefined;
  for (const r of rooms) {
    const inside = r.path.endsWith('/') ? file.startsWith(r.path) : file === r.path;
    if (inside && (!best || r.path.length > best.path.length)) best = r;
  }
  return best;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier);
}

function allows(a: Allowance, rooms: Room[], from: string, imp: Import): boolean {
  if (a.onlyIn && !a.onlyIn.includes(from.slice(from.lastIndexOf('/') + 1))) return false;
  if (a.kind === 'builtins') return !imp.file && isBuiltin(imp.specifier);
  if (a.kind === 'package') {
    if (imp.file) return false;
    const name = packageName(imp.specifier);
    return a.target.endsWith('*') ? name.startsWith(a.target.slice(0, -1)) : name === a.target;
  }
  if (!imp.file) return false;
  let inside: boolean;
  if (a.target.endsWith('/*')) inside = imp.file.startsWith(a.target.slice(0, -1));
  else if (a.target.endsWith('/')) inside = imp.file.startsWith(a.target);
  else inside = imp.file === a.target;
  if (!inside) return false;
  return !a.pureOnly || !importsOf(imp.file).some((i) => i.specifier === 'vscode');
}

test('ARCHITECTURE.md lists the rooms of every source file', () => {
  const rooms = readRooms();
  assert.ok(rooms.length >= 10, `only ${rooms.length} rooms read from ARCHITECTURE.md`);
  const homeless = sourceFiles().filter((f) => !roomOf(rooms, f));
  assert.deepEqual(homeless, [], 'source files in no room of ARCHITECTURE.md');
});

test('every import is one its room may make (ARCHITECTURE.md, "may import")', () => {
  const rooms = readRooms();
  const violations: string[] = [];
  for (const file of sourceFiles()) {
    const room = roomOf(rooms, file);
    if (!room) continue;
    for (const imp of importsOf(file)) {
      if (imp.file && roomOf(rooms, imp.file) === room) continue;
      if (!room.allowed.some((a) => allows(a, rooms, file, imp)))
        violations.push(`${file} imports ${imp.file ?? imp.specifier} (room ${room.path})`);
    }
  }
  assert.deepEqual(violations, []);
});

/** Groups of files that import each other, directly or through others (Tarjan's strongly connected components,
 *  iteratively: no recursion limit on long chains). */
function findCycles(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const out = edges.get(top.node) ?? [];
      if (top.i < out.length) {
        const to = out[top.i++];
        if (!edges.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
        } while (n !== top.node);
        if (component.length > 1 || (edges.get(top.node) ?? []).includes(top.node)) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

test('no import cycles among the source files', () => {
  const files = sourceFiles();
  const edges = new Map(files.map((f) => [f, importsOf(f).flatMap((i) => (i.file ? [i.file] : []))]));
  assert.deepEqual(findCycles(edges), [], 'files that import each other (directly or through others)');
});

test('the cycle finder: a chain has none, a loop through three files and a self-import are found', () => {
  const graph = (pairs: [string, string[]][]): Map<string, string[]> => new Map(pairs);
  assert.deepEqual(
    findCycles(
      graph([
        ['a', ['b']],
        ['b', ['c']],
        ['c', []],
      ]),
    ),
    [],
  );
  assert.deepEqual(
    findCycles(
      graph([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a', 'd']],
        ['d', ['d']],
      ]),
    ),
    [['d'], ['a', 'b', 'c']],
  );
});

test('the checker itself: a room reading nothing, a package glob, a file-restricted package', () => {
  const rooms: Room[] = [
    { path: 'a/', allowed: parseAllowances('nothing') },
    {
      path: 'b/',
      allowed: parseAllowances('`a/`, `vscode-languageserver*`, `vscode` (only in `glue.ts`), node built-ins'),
    },
  ];
  assert.equal(rooms[0].allowed.length, 0);
  const b = rooms[1].allowed;
  const ok = (from: string, imp: Import): boolean => b.some((a) => allows(a, rooms, from, imp));
  assert.ok(ok('b/x.ts', { specifier: '../a/y', file: 'a/y.ts' }));
  assert.ok(ok('b/x.ts', { specifier: 'vscode-languageserver/node' }));
  assert.ok(ok('b/x.ts', { specifier: 'node:fs' }));
  assert.ok(ok('b/glue.ts', { specifier: 'vscode' }));
  assert.ok(!ok('b/x.ts', { specifier: 'vscode' }));
  assert.ok(!ok('b/x.ts', { specifier: 'undici' }));
  assert.ok(!ok('b/x.ts', { specifier: '../c/z', file: 'c/z.ts' }));
});
