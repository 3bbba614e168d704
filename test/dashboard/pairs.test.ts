// Configured pairs as grids, from the engine's expansion of real templates: a mesh is square (each direction in
// two halves), a disjoint group has its A side as rows and B side as columns, a list is one column, excluded
// pairs leave their half empty, and each direction knows the esmond archive its task writes to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { DashboardTaskPairs } from '../../common/protocol';
import { buildGrid } from '../../dashboard/grid';
import { dashboardPairsOf, esmondReadUrl } from '../../server/src/template/expand/dashboard-pairs';
import { expandText } from '../../server/src/template/expand/from-text';
import { dashboardFixturePath, examplePath } from '../fixtures';

async function pairsOf(path: string): Promise<DashboardTaskPairs[]> {
  const text = readFileSync(path, 'utf8');
  const result = await expandText({ uri: 'file:///t.json', version: null, text });
  assert.equal(result.error, undefined);
  const pairs = dashboardPairsOf(result, JSON.parse(text), undefined);
  // Every task of the template gets a grid, in template order.
  assert.deepEqual(
    pairs.tasks.map((t) => t.task),
    result.tasks.map((t) => t.task),
  );
  return pairs.tasks;
}

/** Directions as "source>destination" at "row,col,half" (labels), from the grid's halves. */
function drawn(p: DashboardTaskPairs): Map<string, string> {
  const g = buildGrid(p);
  const out = new Map<string, string>();
  for (let r = 0; r < g.rows.length; r++)
    for (let c = 0; c < g.cols.length; c++)
      for (const h of [0, 1]) {
        const d = g.halves[(r * g.cols.length + c) * 2 + h];
        if (d >= 0)
          out.set(
            `${g.rowLabels[r]},${g.colLabels[c]},${h}`,
            `${g.directions[d].source}>${g.directions[d].destination}`,
          );
      }
  return out;
}

test('a mesh is square: each direction fills row→column of its cell and column→row of the mirrored cell', async () => {
  const [t] = await pairsOf(examplePath('perl-shared--client-psconfig-mesh.json'));
  assert.equal(t.square, true);
  assert.deepEqual(t.rowLabels, ['host-a.perfsonar.net', 'host-b.perfsonar.net', 'host-c.perfsonar.net']);
  assert.deepEqual(t.colLabels, t.rowLabels);
  const d = drawn(t);
  const a = 'host-a.perfsonar.net';
  const b = 'host-b.perfsonar.net';
  assert.equal(d.get(`${a},${b},0`), `${a}>${b}`);
  assert.equal(d.get(`${a},${b},1`), `${b}>${a}`);
  assert.equal(d.get(`${b},${a},0`), `${b}>${a}`);
  assert.equal(d.get(`${b},${a},1`), `${a}>${b}`);
  // 6 directions, each drawn twice; the diagonal is not configured.
  assert.equal(t.directions.length / 6, 6);
  assert.equal(d.size, 12);
  assert.equal(d.get(`${a},${a},0`), undefined);
  // The task writes to the esmond archive the template names.
  assert.deepEqual(t.archives, ['https://archive.perfsonar.net/esmond/perfsonar/archive/']);
});

test('a disjoint group shows its two sides: A as rows, B as columns, B → A in the second half', async () => {
  const tasks = await pairsOf(examplePath('perl-shared--client-psconfig-disjoint.json'));
  const both = tasks.find((t) => t.task === 'example-task-throughput')!;
  assert.equal(both.square, false);
  assert.deepEqual(both.rowLabels, ['host-a.perfsonar.net']);
  assert.deepEqual(both.colLabels, ['host-b.perfsonar.net', 'host-c.perfsonar.net']);
  const d = drawn(both);
  assert.equal(d.get('host-a.perfsonar.net,host-b.perfsonar.net,0'), 'host-a.perfsonar.net>host-b.perfsonar.net');
  assert.equal(d.get('host-a.perfsonar.net,host-b.perfsonar.net,1'), 'host-b.perfsonar.net>host-a.perfsonar.net');
  // Unidirectional: the B → A halves are not configured. Its a → b and a → c are the first task's task JSON (same
  // test, schedule and archives): pSConfig's agent creates them once (task_manager.py _need_new_task), so they are
  // on the first task's grid only, and this one says why.
  const uniPairs = tasks.find((t) => t.task === 'example-task-throughput-uni')!;
  assert.equal(drawn(uniPairs).size, 0);
  assert.equal(uniPairs.identical, 2);
  assert.equal(uniPairs.identicalTo?.task, 'example-task-throughput');
  assert.match(
    buildGrid(uniPairs).identicalNote ?? '',
    /^2 combination\(s\) not on this grid: the first is identical to example-task-throughput host-a\.perfsonar\.net → host-b\.perfsonar\.net/,
  );
  // Excludes: a → f is not configured, f → a is.
  const ex = tasks.find((t) => t.task === 'example-task-throughput-exclude')!;
  assert.deepEqual(ex.rowLabels, ['host-a.perfsonar.net', 'host-b.perfsonar.net', 'host-c.perfsonar.net']);
  const exd = drawn(ex);
  assert.equal(exd.get('host-a.perfsonar.net,host-f.perfsonar.net,0'), undefined);
  assert.equal(exd.get('host-a.perfsonar.net,host-f.perfsonar.net,1'), 'host-f.perfsonar.net>host-a.perfsonar.net');
  assert.equal(exd.size, 17);
});

test('a list group is one column; a direction without a spec source starts at the scheduling agent', async () => {
  const [t] = await pairsOf(examplePath('perl-shared--client-psconfig-list.json'));
  assert.equal(t.cols.length, 1);
  assert.equal(t.rows.length, 3);
  const g = buildGrid(t);
  assert.deepEqual(
    g.directions.map((d) => [d.row, d.col, d.half, d.source, d.destination]),
    ['host-a', 'host-b', 'host-c'].map((h, i) => [i, 0, 0, `${h}.perfsonar.net`, `${h}.perfsonar.net`]),
  );
});

test('the generated mesh: template order, excluded pairs not configured, http archive read through _meta.esmond_url', async () => {
  const tasks = await pairsOf(dashboardFixturePath('mesh-20.psconfig.json'));
  assert.equal(tasks.length, 3);
  for (const t of tasks) {
    assert.equal(t.rows.length, 20);
    assert.deepEqual(
      t.rowLabels,
      Array.from({ length: 20 }, (_, i) => `mesh-${String(i + 1).padStart(2, '0')}.example.net`),
    );
    assert.deepEqual(t.archives, ['http://127.0.0.1:8085/esmond/perfsonar/archive/']);
    assert.equal(t.directions.length / 6, 20 * 19 - 2);
    const d = drawn(t);
    assert.equal(d.get('mesh-01.example.net,mesh-02.example.net,0'), undefined);
    assert.equal(d.get('mesh-01.example.net,mesh-02.example.net,1'), 'mesh-02.example.net>mesh-01.example.net');
    assert.equal(d.get('mesh-02.example.net,mesh-01.example.net,0'), 'mesh-02.example.net>mesh-01.example.net');
  }
  assert.deepEqual(
    tasks.map((t) => t.testType),
    ['throughput', 'latencybg', 'trace'],
  );
});

test('example-1-simple: the http archiver with _meta.esmond_url, variables already resolved by the engine', async () => {
  const tasks = await pairsOf(examplePath('psconfig--example-1-simple.json'));
  for (const t of tasks) assert.deepEqual(t.archives, ['http://archive.perfsonar.net/esmond/perfsonar/archive/']);
});

test("an archive's top-level _meta.esmond_url (stripped from the task JSON) is read from the template, host archives too", async () => {
  const logstash = (h: string) => ({
    archiver: 'http',
    data: { schema: 2, _url: `https://${h}/logstash`, op: 'put' },
    _meta: { esmond_url: `https://${h}/esmond/perfsonar/archive/` },
  });
  const template = {
    archives: {
      central: logstash('central.example.net'),
      // The same object under another name (and a comment pSConfig strips): de-duplicated, as the engine does.
      'central-again': { '#': 'same archive', ...logstash('central.example.net') },
      'site-a': logstash('site-a.example.net'),
    },
    hosts: { 'host-a': { archives: ['central-again', 'site-a'] } },
    addresses: {
      a: { address: 'a.example.net', host: 'host-a' },
      b: { address: 'b.example.net' },
    },
    groups: { g: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }] } },
    tests: { t: { type: 'rtt', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } } },
    tasks: { rtt: { group: 'g', test: 't', archives: ['central'] } },
  };
  const text = JSON.stringify(template);
  const result = await expandText({ uri: 'file:///t.json', version: null, text });
  assert.equal(result.error, undefined);
  // pSConfig posts the archives without their _meta.
  for (const c of result.combinations) for (const a of c.pscheduler!.archives) assert.equal('_meta' in a, false);
  const [t] = dashboardPairsOf(result, template, undefined).tasks;
  const byAgent = new Map<string, string[]>();
  for (let i = 0; i < t.directions.length; i += 6)
    byAgent.set(
      t.endpoints[t.directions[i + 3]],
      t.archiveSets[t.directions[i + 5]].map((k) => t.archives[k]),
    );
  assert.deepEqual(Object.fromEntries(byAgent), {
    'a.example.net': [
      'https://central.example.net/esmond/perfsonar/archive/',
      'https://site-a.example.net/esmond/perfsonar/archive/',
    ],
    'b.example.net': ['https://central.example.net/esmond/perfsonar/archive/'],
  });
  // Without the template the task JSON alone has no reader's URL (its _url is not an esmond path).
  assert.deepEqual(dashboardPairsOf(result, undefined, undefined).tasks[0].archives, []);
});

test('esmondReadUrl: esmond url, _meta.esmond_url, http _url only when it is an esmond path', () => {
  const url = 'https://ma.example.net/esmond/perfsonar/archive/';
  assert.equal(esmondReadUrl({ archiver: 'esmond', data: { url } }), url);
  assert.equal(esmondReadUrl({ archiver: 'http', data: { _url: 'https://ma.example.net/logstash' } }), undefined);
  assert.equal(esmondReadUrl({ archiver: 'http', data: { _url: url } }), url);
  assert.equal(
    esmondReadUrl({ archiver: 'http', data: { _url: 'https://x/logstash', _meta: { esmond_url: url } } }),
    url,
  );
  const logstash = { archiver: 'http', data: { _url: 'https://x/logstash' } };
  assert.equal(esmondReadUrl(logstash, { ...logstash, _meta: { esmond_url: url } }), url);
  assert.equal(esmondReadUrl({ ...logstash, _meta: { esmond_url: url } }), url);
  assert.equal(esmondReadUrl({ archiver: 'syslog', data: {} }), undefined);
  assert.equal(esmondReadUrl({ archiver: 'esmond', data: { url: 'ftp://x/' } }), undefined);
});

test('a task filter keeps only the named tasks', async () => {
  const text = readFileSync(dashboardFixturePath('mesh-20.psconfig.json'), 'utf8');
  const result = await expandText({ uri: 'file:///t.json', version: null, text });
  const pairs = dashboardPairsOf(result, JSON.parse(text), ['mesh-trace']);
  assert.deepEqual(
    pairs.tasks.map((t) => t.task),
    ['mesh-trace'],
  );
});

test('identical tasks: a second template task with the same pairs has an empty grid that says why', async () => {
  // Two tasks with the same test, schedule and archive on the same mesh: pSConfig's agent creates each task once
  // (task_manager.py _need_new_task), as the first task's; its results are on the first task's grid only.
  const text = readFileSync(examplePath('perl-shared--client-psconfig-mesh.json'), 'utf8');
  const t = JSON.parse(text) as { tasks: Record<string, unknown> };
  t.tasks.again = t.tasks['example-task-throughput'];
  const result = await expandText({ uri: 'file:///t.json', version: null, text: JSON.stringify(t) });
  const [first, again] = dashboardPairsOf(result, t, undefined).tasks;
  assert.equal(first.directions.length / 6, 6);
  assert.equal(first.identical, undefined);
  assert.equal(again.directions.length / 6, 0);
  assert.equal(again.failed, 0);
  assert.equal(again.identical, 6);
  assert.deepEqual(again.identicalTo, {
    task: 'example-task-throughput',
    addresses: ['host-a.perfsonar.net', 'host-b.perfsonar.net'],
    addressValues: ['host-a.perfsonar.net', 'host-b.perfsonar.net'],
  });
});
