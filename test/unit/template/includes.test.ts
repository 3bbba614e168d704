// Includes in validation (server/src/template/includes/, rules/includes.ts): names from included files resolve,
// truly missing ones are errors, relative paths read from the working directory as pSConfig does, boundaries
// (regular files only, size, count, folders), remote includes only with consent and trust, bounded and cached.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateTemplateWithIncludes, type TemplateDiagnostic } from '../../../server/src/template/diagnostics';
import { DEFAULT_INCLUDE_LIMITS, type IncludePolicy } from '../../../server/src/template/includes/loader';
import { RemoteIncludeCache } from '../../../server/src/template/includes/fetch-remote';
import { template } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'psconfig-includes-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, value: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return p;
}

function policy(extra: Partial<IncludePolicy> = {}): IncludePolicy {
  return { workingDir: dir, remote: 'no-consent', limits: DEFAULT_INCLUDE_LIMITS, ...extra };
}

interface Found extends TemplateDiagnostic {
  text: string;
}

async function check(doc: unknown, p: IncludePolicy = policy()): Promise<Found[]> {
  const text = typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2);
  const r = await validateTemplateWithIncludes(text, p);
  return r.diagnostics.map((d) => ({ ...d, text: text.slice(d.start, d.end) }));
}

const code = (ds: Found[], c: string): Found[] => ds.filter((d) => d.code === c);
const errors = (ds: Found[]): Found[] => ds.filter((d) => d.severity === 'error');

// A template whose task uses a group, test and address that live in an include.
const usesIncluded = (includes: string[]): Record<string, unknown> =>
  template({
    groups: { g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'c', label: 'v6' }] } },
    tasks: { task: { group: 'g', test: 'remote-test' } },
    includes,
  });
const includedDefs = {
  addresses: { c: { address: 'c.example.net', labels: { v6: { address: '2001:db8::c' } } } },
  tests: { 'remote-test': { type: 'rtt', spec: { dest: '{% address[1] %}' } } },
};

test('local include (absolute and file://): its names resolve, nothing is reported', async () => {
  const inc = write('defs.json', includedDefs);
  for (const ref of [inc, `file://${inc}`]) {
    const ds = await check(usesIncluded([ref]));
    assert.deepEqual(
      ds.filter((d) => d.severity !== 'hint'),
      [],
      ref,
    );
  }
});

test('a name missing from the template and every include is an error that says so', async () => {
  const inc = write('defs2.json', includedDefs);
  const t = usesIncluded([inc]);
  (t.tasks as Record<string, Record<string, unknown>>).task.schedule = 'nowhere';
  const ds = await check(t);
  const [d] = code(ds, 'psconfig/unknown-schedule');
  assert.equal(d.severity, 'error');
  assert.equal(d.text, 'nowhere');
  assert.match(d.message, /None of the included files defines it either/);
  // a label the included address lacks is an error too
  const groups = t.groups as Record<string, Record<string, unknown>>;
  groups.g.addresses = [{ name: 'a' }, { name: 'c', label: 'v6x' }];
  const [l] = code(await check(t), 'psconfig/unknown-label');
  assert.equal(l.severity, 'error');
  assert.match(l.message, /did you mean `v6`/);
});

test('relative include: read from the working directory, with a warning saying where and what the agent reads', async () => {
  write('rel.json', includedDefs);
  const ds = await check(usesIncluded(['rel.json']));
  assert.deepEqual(errors(ds), []);
  const [w] = code(ds, 'psconfig/include-relative');
  assert.equal(w.severity, 'warning');
  assert.equal(w.text, 'rel.json');
  assert.ok(w.message.includes(`read here as ${join(dir, 'rel.json')}`), w.message);
  assert.match(w.message, /not from this template's folder/);
  assert.match(w.message, /agent runs from \/ and would look for \/rel\.json/);
  // From another working directory the same entry is missing: one error on the entry, nothing else.
  const elsewhere = await check(usesIncluded(['rel.json']), policy({ workingDir: tmpdir() }));
  assert.deepEqual(
    errors(elsewhere).map((d) => [d.code, d.text]),
    [['psconfig/include', 'rel.json']],
  );
  assert.match(errors(elsewhere)[0].message, /relative path/);
});

test('a missing include is one error on its entry; the names it may define are listed there, not reported one by one', async () => {
  const ds = await check(usesIncluded([join(dir, 'does-not-exist.json')]));
  assert.deepEqual(
    errors(ds).map((d) => d.code),
    ['psconfig/include'],
  );
  const [d] = errors(ds);
  assert.match(d.message, /^Error including .*does-not-exist\.json: no such file/);
  assert.match(d.message, /address `c`, test `remote-test`/);
  assert.deepEqual(code(ds, 'psconfig/unused-definition'), [], 'nothing is called unused while an include is unread');
});

test('an include that is not JSON or not an object is an error on its entry', async () => {
  const bad = write('bad.json', '{ "addresses": ');
  const arr = write('array.json', '[1]');
  const ds = await check(usesIncluded([bad, arr]));
  const msgs = code(ds, 'psconfig/include').map((d) => d.message);
  assert.match(msgs[0], /not valid JSON \(line 1, column \d+/);
  assert.match(msgs[1], /not a JSON object/);
});

test('cycles: a template including itself, and an include naming the template back (pSConfig reads one level)', async () => {
  const main = join(dir, 'cyclic.json');
  const inc = write('back.json', { ...includedDefs, includes: [main] });
  const text = JSON.stringify(usesIncluded([inc, main]), null, 2);
  writeFileSync(main, text);
  const ds = await check(text, policy({ templatePath: main }));
  const [self] = code(ds, 'psconfig/include-cycle');
  assert.equal(self.severity, 'warning');
  assert.equal(self.text, main);
  const [nested] = code(ds, 'psconfig/include-nested');
  assert.equal(nested.text, inc);
  assert.match(nested.message, /one of them is this template: pSConfig never follows it/);
  assert.deepEqual(errors(ds), []);
});

test('names used by an included file that nothing defines fail after merging (one error on the entry)', async () => {
  const inc = write('dangling.json', {
    ...includedDefs,
    tasks: { t2: { group: 'no-such-group', test: 'remote-test' } },
  });
  const ds = await check(usesIncluded([inc]));
  const [d] = errors(ds);
  assert.equal(d.code, 'psconfig/include');
  assert.match(d.message, /task t2 references group no-such-group that does not exist/);
});

test('a definition used only by an included task is not unused', async () => {
  const inc = write('user.json', { tasks: { t2: { group: 'g2', test: 't' } } });
  const t = template({
    groups: {
      g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }] },
      g2: { type: 'list', addresses: [{ name: 'a' }] },
    },
    includes: [inc],
  });
  assert.deepEqual(code(await check(t), 'psconfig/unused-definition'), []);
});

test('FIFO, /dev/zero, a directory and /proc are refused without blocking', async () => {
  const fifo = join(dir, 'pipe.json');
  execFileSync('mkfifo', [fifo]);
  const link = join(dir, 'environ.json');
  symlinkSync('/proc/self/environ', link);
  const started = Date.now();
  const ds = await check(usesIncluded([fifo, '/dev/zero', dir, link]));
  assert.ok(Date.now() - started < 5000, 'no include blocks');
  const msgs = code(ds, 'psconfig/include').map((d) => d.message);
  assert.equal(msgs.length, 4);
  assert.match(msgs[0], /is a FIFO \(named pipe\), not a regular file/);
  assert.match(msgs[1], /\/dev\/zero is under \/dev/);
  assert.match(msgs[2], /is a directory, not a regular file/);
  assert.match(msgs[3], /\/proc\/.*environ is under \/proc/);
});

test('the command line does not hang on a FIFO include (validate and expand)', () => {
  const fifo = join(dir, 'cli-pipe.json');
  execFileSync('mkfifo', [fifo]);
  const main = write('cli-main.json', usesIncluded([fifo]));
  const cli = join(__dirname, '..', '..', '..', '..', 'dist', 'cli.js');
  for (const args of [
    ['validate', main],
    ['expand', main],
  ]) {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.signal, null, `${args[0]} was killed by the time limit`);
    assert.ok([1, 0].includes(r.status ?? -1), r.stderr);
    assert.match(r.stdout + r.stderr, /FIFO \(named pipe\), not a regular file/);
  }
});

test('size limit and count limit', async () => {
  const big = write('big.json', JSON.stringify({ addresses: {}, pad: 'x'.repeat(5000) }));
  const small = { ...DEFAULT_INCLUDE_LIMITS, maxBytes: 1000, maxIncludes: 1 };
  const ds = await check(usesIncluded([big, big]), policy({ limits: small }));
  assert.match(code(ds, 'psconfig/include')[0].message, /larger than the include limit of 1000 bytes/);
  assert.match(code(ds, 'psconfig/include-skipped')[0].message, /more than 1 includes/);
});

test('editor boundary: a file outside the allowed folders is not read, and the message names the setting', async () => {
  const outside = mkdtempSync(join(tmpdir(), 'psconfig-outside-'));
  try {
    writeFileSync(join(outside, 'defs.json'), JSON.stringify(includedDefs));
    const p = policy({ allowedDirs: [dir], allowedDirsSetting: 'psconfig.includes.directories' });
    const ds = await check(usesIncluded([join(outside, 'defs.json')]), p);
    const [d] = code(ds, 'psconfig/include-skipped');
    assert.match(d.message, /outside the workspace folders and the template's folder/);
    assert.match(d.message, /psconfig\.includes\.directories/);
    // A symlink inside the folder pointing outside is judged by where it points.
    symlinkSync(join(outside, 'defs.json'), join(dir, 'sneaky.json'));
    assert.equal(code(await check(usesIncluded([join(dir, 'sneaky.json')]), p), 'psconfig/include-skipped').length, 1);
    assert.deepEqual(
      errors(await check(usesIncluded([join(outside, 'defs.json')]), { ...p, allowedDirs: [dir, outside] })),
      [],
    );
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

test("an open editor's text is used instead of the file on disk", async () => {
  const inc = write('overlay.json', { addresses: {} });
  const ds = await check(usesIncluded([inc]), policy({ overlays: new Map([[inc, JSON.stringify(includedDefs)]]) }));
  assert.deepEqual(errors(ds), []);
});

// ---- remote includes against a real HTTP server ------------------------------------------------------------------

interface Served {
  server: Server;
  origin: string;
  hits: string[];
}

async function serve(handler: (path: string, res: import('node:http').ServerResponse) => void): Promise<Served> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req.url ?? '', res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

test('remote includes: fetched only with consent and trust; redirects within the origin; limits; cached per URL', async () => {
  const other = await serve((_p, res) => res.end(JSON.stringify(includedDefs)));
  const s = await serve((path, res) => {
    if (path === '/defs.json') res.end(JSON.stringify(includedDefs));
    else if (path === '/moved') res.writeHead(302, { location: '/defs.json' }).end();
    else if (path === '/away') res.writeHead(302, { location: `${other.origin}/defs.json` }).end();
    else if (path === '/huge') {
      res.write('{"pad": "');
      const timer = setInterval(() => res.write('x'.repeat(64 * 1024)), 1);
      res.on('close', () => clearInterval(timer));
    } else if (path === '/silent') {
      res.write('{');
    } else res.writeHead(404).end('{"detail": "Not found."}');
  });
  try {
    const url = `${s.origin}/defs.json`;
    // without consent, and in an untrusted workspace: not fetched, one note on the entry
    const noConsent = await check(usesIncluded([url]));
    assert.match(code(noConsent, 'psconfig/include-skipped')[0].message, /only with consent/);
    const untrusted = await check(usesIncluded([url]), policy({ remote: 'untrusted' }));
    assert.match(code(untrusted, 'psconfig/include-skipped')[0].message, /restricted \(untrusted\) workspace/);
    assert.deepEqual(s.hits, []);

    // with consent: names resolve; a second check is served from the cache
    const cache = new RemoteIncludeCache();
    const allowed = policy({ remote: 'allowed', cache });
    assert.deepEqual(errors(await check(usesIncluded([url]), allowed)), []);
    assert.deepEqual(errors(await check(usesIncluded([url]), allowed)), []);
    assert.equal(s.hits.filter((h) => h === '/defs.json').length, 1, 'one fetch per URL');

    // a redirect within the origin is followed; to another origin it is refused
    assert.deepEqual(errors(await check(usesIncluded([`${s.origin}/moved`]), allowed)), []);
    const away = await check(usesIncluded([`${s.origin}/away`]), allowed);
    assert.match(code(away, 'psconfig/include')[0].message, /redirects to another origin/);
    assert.deepEqual(other.hits, []);

    // an HTTP error, an endless body, a silent server: each one diagnostic on its entry, within the limits
    const limits = { ...DEFAULT_INCLUDE_LIMITS, maxBytes: 256 * 1024, timeoutMs: 1000 };
    const started = Date.now();
    const bad = await check(
      usesIncluded([`${s.origin}/nope`, `${s.origin}/huge`, `${s.origin}/silent`]),
      policy({ remote: 'allowed', limits }),
    );
    assert.ok(Date.now() - started < 8000);
    const msgs = code(bad, 'psconfig/include').map((d) => d.message);
    assert.equal(msgs.length, 3, JSON.stringify(bad, null, 1));
    assert.match(msgs[0], /HTTP 404/);
    assert.match(msgs[1], /answers more than the limit of 262144 bytes/);
    assert.match(msgs[2], /no complete answer from .* within 1 s/);
    assert.equal(errors(bad).length, 3, 'one diagnostic per include, nothing else');

    // unreachable: one clear diagnostic
    other.server.close();
    const gone = await check(usesIncluded([`${other.origin}/defs.json`]), policy({ remote: 'allowed', limits }));
    assert.match(code(gone, 'psconfig/include')[0].message, /cannot reach .*ECONNREFUSED/);
  } finally {
    s.server.closeAllConnections();
    s.server.close();
    other.server.close();
  }
});

test('a folder named like a file inside allowed dirs is still refused as a directory', async () => {
  mkdirSync(join(dir, 'folder.json'));
  const ds = await check(usesIncluded([join(dir, 'folder.json')]), policy({ allowedDirs: [dir] }));
  assert.match(code(ds, 'psconfig/include')[0].message, /is a directory/);
});
