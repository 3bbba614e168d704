import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentSymbols } from '../../../server/src/template/navigation/document-symbols';
import {
  archiveLenses,
  archiveUrl,
  dashboardLenses,
  taskLenses,
  taskLensTitle,
} from '../../../server/src/template/navigation/code-lenses';
import { TEMPLATE, navModel } from './nav-fixture';
import type { ExpandedCombination } from '../../../common/protocol';

const model = navModel(TEMPLATE);

test('document symbols: sections with their objects, labels and remote entries under addresses', () => {
  const symbols = documentSymbols(model);
  assert.deepEqual(
    symbols.map((s) => s.name),
    [
      'addresses',
      'address-classes',
      'hosts',
      'contexts',
      'archives',
      'groups',
      'tests',
      'schedules',
      'subtasks',
      'tasks',
    ],
  );
  const addresses = symbols[0];
  assert.equal(addresses.kind, 'section');
  assert.deepEqual(
    addresses.children.map((c) => c.name),
    ['a1', 'a2', 'a3'],
  );
  assert.deepEqual(
    addresses.children[0].children.map((c) => `${c.kind}:${c.name}`),
    ['labels:v6', 'remote-addresses:a2'],
  );
  const groups = symbols.find((s) => s.name === 'groups');
  assert.deepEqual(
    groups?.children.map((c) => c.detail),
    ['mesh', 'list'],
  );
  const t = symbols.find((s) => s.name === 'tasks')!.children[0];
  assert.equal(TEMPLATE.slice(t.selectionStart, t.selectionEnd), '"t-mesh"');
});

test('task lenses carry the count line', () => {
  const facts = {
    tasks: [
      { task: 't-mesh', count: 6, agents: 3 },
      { task: 't-list', count: 0, agents: 0, disabled: true },
    ],
    combinations: [],
  };
  const lenses = taskLenses(model, facts);
  assert.deepEqual(
    lenses.map((l) => l.title),
    ['6 tasks for 3 agents', '0 tasks for 0 agents (disabled)'],
  );
  assert.equal(
    taskLensTitle('t-mesh', {
      tasks: [{ task: 't-mesh', count: 1, agents: 1, error: 'scheduled-by is too big' }],
      combinations: [],
    }),
    'cannot expand: scheduled-by is too big',
  );
});

const ESMOND = 'https://ma.example.net/esmond/perfsonar/archive/';

function combination(
  task: string,
  type: string,
  spec: Record<string, unknown>,
  archives: Record<string, unknown>[],
  agent = 'x.net',
): ExpandedCombination {
  return {
    task,
    addresses: ['a1', 'a2'],
    addressValues: ['x.net', 'y.net'],
    agent,
    pscheduler: { test: { type, spec }, archives, schedule: {} },
  };
}

test('archive lenses: the pair and metric of the first task whose combination writes to the archive', () => {
  const facts = {
    tasks: [],
    combinations: [
      combination('t-mesh', 'throughput', { source: 'x.net', dest: 'y.net' }, [
        { archiver: 'esmond', data: { url: ESMOND } },
      ]),
    ],
  };
  assert.deepEqual(
    archiveLenses(model, facts).map((l) => [l.title, l.args]),
    [
      [
        'Open in Archive Explorer: t-mesh x.net → y.net',
        { url: ESMOND, task: 't-mesh', inputSource: 'x.net', inputDestination: 'y.net', eventType: 'throughput' },
      ],
    ],
  );
  assert.deepEqual(
    archiveLenses(model).map((l) => l.args),
    [{ url: ESMOND }],
  );
  // `arch` reaches t-mesh through host h1 (of a1) as well as by name; a combination scheduled by a host without it
  // (here: no archives in its task JSON) does not write there, so its pair is not offered (the lens used to
  // pre-fill the first pair of any task using the archive, whatever that combination wrote to).
  const elsewhere = {
    tasks: [],
    combinations: [combination('t-mesh', 'throughput', { source: 'y.net', dest: 'x.net' }, [], 'y.net')],
  };
  assert.deepEqual(
    archiveLenses(model, elsewhere).map((l) => [l.title, l.args]),
    [['Open in Archive Explorer', { url: ESMOND }]],
  );
});

test('archive lenses: an http archive with a variable opens the URL its combination resolved; _meta.esmond_url wins', () => {
  const text = TEMPLATE.replace(
    `"archiver": "esmond", "data": { "url": "${ESMOND}" }`,
    '"archiver": "http", "data": { "_url": "https://{% scheduled_by_address %}/logstash" }',
  );
  const http = navModel(text);
  assert.deepEqual(archiveLenses(http), []);
  const facts = {
    tasks: [],
    combinations: [
      combination('t-mesh', 'throughput', { source: 'x.net', dest: 'y.net' }, [
        { archiver: 'http', data: { _url: 'https://x.net/logstash' } },
      ]),
    ],
  };
  assert.deepEqual(
    archiveLenses(http, facts).map((l) => l.args.url),
    ['https://x.net/logstash'],
  );
  const meta = navModel(
    text.replace(
      '"_url": "https://{% scheduled_by_address %}/logstash"',
      `"_url": "https://l/", "_meta": { "esmond_url": "${ESMOND}" }`,
    ),
  );
  assert.deepEqual(
    archiveLenses(meta).map((l) => l.args.url),
    [ESMOND],
  );
  // At the archive's top level (where pScheduler accepts it): the task JSON has no _meta, so the combination is
  // found by its _url and the lens opens the template's esmond_url.
  const top = navModel(
    text.replace(
      '"data": { "_url": "https://{% scheduled_by_address %}/logstash" }',
      `"data": { "_url": "https://{% scheduled_by_address %}/logstash" }, "_meta": { "esmond_url": "${ESMOND}" }`,
    ),
  );
  assert.deepEqual(
    archiveLenses(top, facts).map((l) => [l.title, l.args]),
    [
      [
        'Open in Archive Explorer: t-mesh x.net → y.net',
        {
          url: ESMOND,
          task: 't-mesh',
          inputSource: 'x.net',
          inputDestination: 'y.net',
          eventType: 'throughput',
        },
      ],
    ],
  );
  assert.deepEqual(
    archiveLenses(top).map((l) => l.args.url),
    [ESMOND],
  );
  assert.equal(archiveUrl('syslog', { url: 'https://x' }), undefined);
});

test('dashboard lenses: one per task', () => {
  assert.deepEqual(
    dashboardLenses(model).map((l) => [l.task, l.title]),
    [
      ['t-mesh', 'Dashboard'],
      ['t-list', 'Dashboard'],
    ],
  );
});
