import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentSymbols } from '../../../server/src/template/navigation/document-symbols';
import {
  archiveLenses,
  archiveUrl,
  taskLenses,
  taskLensTitle,
} from '../../../server/src/template/navigation/code-lenses';
import { TEMPLATE, navModel } from './nav-fixture';

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

test('archive lenses: esmond url, first pair of a task using it; http _url with a variable filled in', () => {
  const facts = {
    tasks: [],
    combinations: [{ task: 't-mesh', addresses: ['a1', 'a2'], addressValues: ['x.net', 'y.net'], agent: 'x.net' }],
  };
  assert.deepEqual(
    archiveLenses(model, facts).map((l) => l.args),
    [{ url: 'https://ma.example.net/esmond/perfsonar/archive/', source: 'x.net', destination: 'y.net' }],
  );
  assert.deepEqual(
    archiveLenses(model).map((l) => l.args),
    [{ url: 'https://ma.example.net/esmond/perfsonar/archive/' }],
  );
  const text = TEMPLATE.replace(
    '"archiver": "esmond", "data": { "url": "https://ma.example.net/esmond/perfsonar/archive/" }',
    '"archiver": "http", "data": { "_url": "https://{% scheduled_by_address %}/logstash" }',
  );
  const http = navModel(text);
  assert.deepEqual(archiveLenses(http), []);
  assert.deepEqual(
    archiveLenses(http, facts).map((l) => l.args.url),
    ['https://x.net/logstash'],
  );
  assert.equal(archiveUrl('syslog', { url: 'https://x' }), undefined);
});
