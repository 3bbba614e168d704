import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hoverAt, type ExpansionFacts } from '../../../server/src/template/navigation/hover';
import { TEMPLATE, navModel } from './nav-fixture';

const model = navModel(TEMPLATE);
const at = (needle: string, delta = 1): number => {
  const i = TEMPLATE.indexOf(needle);
  assert.ok(i >= 0, needle);
  return i + delta;
};

const facts: ExpansionFacts = {
  tasks: [
    { task: 't-mesh', count: 6, agents: 3 },
    { task: 't-list', count: 1, agents: 1 },
  ],
  combinations: [
    {
      task: 't-mesh',
      addresses: ['a1', 'a2'],
      addressValues: ['2001:db8::1', 'a2.example.net'],
      agent: '2001:db8::1',
      flip: false,
      pscheduler: {
        test: { type: 'throughput', spec: { source: '2001:db8::1', dest: 'a2.example.net' } },
        archives: [],
        schedule: {},
      },
    },
  ],
};

test('a reference shows the object it names as JSON', () => {
  const h = hoverAt(model, at('"schedule": "often"', 13));
  assert.ok(h);
  assert.match(h.markdown, /\*\*schedule\*\* `often`/);
  assert.match(h.markdown, /```json\n\{\n {2}"repeat": "PT1H"\n\}\n```/);
  assert.equal(TEMPLATE.slice(h.start, h.end), 'often');
});

test('a group shows its type and what each task using it yields', () => {
  const h = hoverAt(model, at('"mesh-g": {'), facts);
  assert.ok(h);
  assert.match(h.markdown, /Type: `mesh`/);
  assert.match(h.markdown, /Task `t-mesh`: 6 tasks for 3 agents/);
});

test('an undefined name says so', () => {
  const text = TEMPLATE.replace('"schedule": "often"', '"schedule": "rarely"');
  const h = hoverAt(navModel(text), text.indexOf('"rarely"') + 2);
  assert.match(h?.markdown ?? '', /`rarely` is not defined/);
});

test('a variable shows its value in the first combination and the expanded string', () => {
  const h = hoverAt(model, at('{% address[1] %}', 4), facts);
  assert.ok(h);
  assert.match(h.markdown, /first combination `2001:db8::1 → a2.example.net`: `"a2.example.net"`/);
  assert.match(h.markdown, /This value expands to/);
  const p = hoverAt(model, at('"source": "{% address[0] %}"', 14), facts);
  assert.match(p?.markdown ?? '', /"2001:db8::1"/);
});

test('variables where pSConfig does not expand them, and malformed ones', () => {
  const text = TEMPLATE.replace('"address": "a3.example.net"', '"address": "{% address[0] %}"').replace(
    '"dest": "{% address[0] %}"',
    '"dest": "{%address[0]%}"',
  );
  const m = navModel(text);
  assert.match(hoverAt(m, text.indexOf('{% address[0] %}') + 4)?.markdown ?? '', /does not expand variables here/);
  assert.match(hoverAt(m, text.indexOf('{%address[0]%}') + 4)?.markdown ?? '', /not\*\* a template variable/);
});
