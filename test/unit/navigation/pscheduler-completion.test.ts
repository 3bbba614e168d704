// Completion inside test specs, archiver data and context data: keys by plug-in and schema version (later-version
// keys marked and setting `schema`), enum and boolean values, schema versions, plug-in names. Expectations are
// read from the data files (schemas/pscheduler/), so they follow the data, not this module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { completeAt } from '../../../server/src/template/navigation/completion';
import type { NavCompletionItem } from '../../../server/src/template/navigation/completion-items';
import { analyseTemplate } from '../../../server/src/template/model';
import { checkPscheduler } from '../../../server/src/template/rules/pscheduler';
import { pschedulerDataDir } from '../../fixtures';
import { applyOffsetEdits, atCursor } from './nav-fixture';

interface DataFile {
  kind: string;
  name: string;
  select: string;
  versions: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
}
const data = (file: string): DataFile => JSON.parse(readFileSync(join(pschedulerDataDir, file), 'utf8')) as DataFile;
const keysOf = (file: string, version: string): string[] => Object.keys(data(file).versions[version].properties ?? {});

const test1 = (type: string, spec: string): string =>
  `{\n  "tests": {\n    "t": {\n      "type": "${type}",\n      "spec": ${spec}\n    }\n  }\n}\n`;
const archive = (archiver: string, body: string): string =>
  `{ "archives": { "a": { "archiver": "${archiver}", "data": ${body} } } }`;
const context = (name: string, body: string): string =>
  `{ "contexts": { "c": { "context": "${name}", "data": ${body} } } }`;

function complete(marked: string): { items: NavCompletionItem[]; context: string; text: string; offset: number } {
  const { model, offset } = atCursor(marked);
  const r = completeAt(model, offset);
  return { items: r.items, context: r.context, text: model.text, offset };
}
const labels = (items: NavCompletionItem[]): string[] => items.map((i) => i.label);
const byLabel = (items: NavCompletionItem[], label: string): NavCompletionItem => {
  const found = items.find((i) => i.label === label);
  assert.ok(found, `${label} offered (got ${labels(items).join(', ')})`);
  return found;
};

/** Applies an item the way a client does (its text over its range, plus its additional edits). */
function apply(text: string, item: NavCompletionItem): string {
  return applyOffsetEdits(text, [
    { start: item.replaceStart, end: item.replaceEnd, newText: item.insertText },
    ...(item.additionalEdits ?? []),
  ]);
}
const pschedulerCodes = (text: string): string[] => checkPscheduler(analyseTemplate(text)).map((d) => d.code);

test('throughput keys at schema 1: the version 1 fields, and later fields marked with the version that brings them', () => {
  const { items, context } = complete(test1('throughput', '{ "dest": "b.example.net", | }'));
  assert.equal(context, 'pscheduler');
  const v1 = keysOf('test-throughput.json', '1').filter((k) => k !== 'dest');
  const v7 = keysOf('test-throughput.json', '7').filter((k) => k !== 'dest');
  const inV1 = items.filter((i) => !i.detail?.includes('needs schema'));
  assert.deepEqual(labels(inV1).sort(), [...v1].sort());
  assert.deepEqual(labels(items).sort(), [...v7].sort(), 'every key of the latest version is offered');
  // fq-rate arrives with schema 7 (pscheduler-test-throughput validate.py)
  const fq = byLabel(items, 'fq-rate');
  assert.match(fq.detail ?? '', /needs schema 7/);
  assert.match(fq.documentation ?? '', /Introduced in throughput schema 7/);
  assert.deepEqual(
    fq.additionalEdits?.map((e) => e.newText),
    ['"schema": 7, '],
  );
  assert.ok(!byLabel(items, 'duration').additionalEdits, 'a version 1 key edits nothing else');
});

test('throughput keys at schema 7: nothing is marked, nothing sets schema, present keys are left out', () => {
  const { items } = complete(test1('throughput', '{ "schema": 7, "dest": "b", "duration": "PT10S", | }'));
  const expected = keysOf('test-throughput.json', '7').filter((k) => !['schema', 'dest', 'duration'].includes(k));
  assert.deepEqual(labels(items).sort(), expected.sort());
  assert.ok(items.every((i) => !i.additionalEdits && !i.detail?.includes('needs schema')));
});

test('choosing a later-version key sets schema: the result passes pScheduler checks', () => {
  for (const spec of [
    '{ "dest": "b.example.net", | }',
    '{\n        "dest": "b.example.net",\n        |\n      }',
    '{ | }',
    '{ "dest": "b.example.net", "schema": 2, | }',
  ]) {
    const { items, text } = complete(test1('throughput', spec));
    const item = byLabel(items, 'loopback');
    const after = apply(text, item).replace('"loopback": ', '"loopback": true');
    const codes = pschedulerCodes(after);
    assert.ok(!codes.includes('psconfig/spec-needs-schema'), `${after}\n${codes.join(', ')}`);
    assert.ok(!codes.includes('psconfig/spec-unknown-property'), after);
    assert.match(after, /"schema": 5/);
  }
});

test('a key typed in quotes: with no colon yet the property is written, with one only the name is replaced', () => {
  const noColon = complete(test1('throughput', '{ "dest": "b", "dur|" }'));
  const d = byLabel(noColon.items, 'duration');
  assert.equal(apply(noColon.text, d), test1('throughput', '{ "dest": "b", "duration": "" }'));
  const colon = complete(test1('throughput', '{ "dest": "b", "dur|": "PT5S" }'));
  assert.equal(
    apply(colon.text, byLabel(colon.items, 'duration')),
    test1('throughput', '{ "dest": "b", "duration": "PT5S" }'),
  );
  assert.ok(labels(colon.items).includes('duration'), 'the key being edited is not counted as present');
  // a key before another property gets its comma
  const before = complete(test1('throughput', '{ | "dest": "b" }'));
  assert.equal(apply(before.text, byLabel(before.items, 'udp')), test1('throughput', '{ "udp": , "dest": "b" }'));
});

test('latency flip: offered as a key, its values are the two booleans', () => {
  const keys = complete(test1('latency', '{ "dest": "b", "source": "a", | }'));
  assert.match(byLabel(keys.items, 'flip').detail ?? '', /true or false/);
  const values = complete(test1('latency', '{ "dest": "b", "source": "a", "flip": | }'));
  assert.deepEqual(labels(values.items), ['true', 'false']);
  assert.equal(apply(values.text, values.items[0]), test1('latency', '{ "dest": "b", "source": "a", "flip": true }'));
  // on a literal already written: replaced
  const literal = complete(test1('latency', '{ "dest": "b", "flip": tr|ue }'));
  assert.equal(
    apply(literal.text, byLabel(literal.items, 'false')),
    test1('latency', '{ "dest": "b", "flip": false }'),
  );
});

test('enum values of an enum field, in quotes and after the colon', () => {
  const local = (data('test-throughput.json') as unknown as { local: { congestion: { enum: string[] } } }).local;
  const inQuotes = complete(test1('throughput', '{ "dest": "b", "congestion": "cu|" }'));
  assert.deepEqual(labels(inQuotes.items), local.congestion.enum);
  assert.equal(
    apply(inQuotes.text, byLabel(inQuotes.items, 'cubic')),
    test1('throughput', '{ "dest": "b", "congestion": "cubic" }'),
  );
  const bare = complete(test1('throughput', '{ "dest": "b", "ip-version": | }'));
  assert.deepEqual(labels(bare.items), ['4', '6']);
});

test('http archive: _url is offered as required, op takes put or post, _headers needs schema 2', () => {
  const { items } = complete(archive('http', '{ | }'));
  const required = data('archiver-http.json').versions['1'].required ?? [];
  assert.ok(required.includes('_url'));
  assert.match(byLabel(items, '_url').detail ?? '', /^required/);
  assert.match(byLabel(items, '_headers').detail ?? '', /needs schema 2/);
  assert.ok(!labels(items).includes('_meta'), '_meta is never offered inside data');
  const op = complete(archive('http', '{ "_url": "https://x.example.net/", "op": "|" }'));
  assert.deepEqual(labels(op.items), ['put', 'post']);
  const schema = complete(archive('http', '{ "_url": "https://x.example.net/", "schema": | }'));
  assert.deepEqual(labels(schema.items), Object.keys(data('archiver-http.json').versions));
});

test("a context's data: linuxnns namespace, linuxvrf vrf", () => {
  assert.deepEqual(
    labels(complete(context('linuxnns', '{ | }')).items).sort(),
    keysOf('context-linuxnns.json', '1').sort(),
  );
  const vrf = complete(context('linuxvrf', '{ "schema": 1, | }'));
  assert.deepEqual(labels(vrf.items), ['vrf']);
  assert.match(vrf.items[0].detail ?? '', /^required/);
});

test('nested objects: a latency data-ports range offers lower and upper', () => {
  const { items } = complete(test1('latency', '{ "dest": "b", "data-ports": { "lower": 5000, | } }'));
  assert.deepEqual(labels(items), ['upper']);
});

test('type, archiver and context values: every plug-in pScheduler has', () => {
  const names = (prefix: string): string[] =>
    readdirSync(pschedulerDataDir)
      .filter((f) => f.startsWith(prefix))
      .map((f) => data(f).name)
      .sort();
  const t = complete('{ "tests": { "t": { "type": "|", "spec": {} } } }');
  assert.deepEqual(labels(t.items).sort(), names('test-'));
  const bare = complete('{ "tests": { "t": { "type": |, "spec": {} } } }');
  assert.equal(byLabel(bare.items, 'throughput').insertText, '"throughput"');
  assert.deepEqual(labels(complete('{ "archives": { "a": { "archiver": "h|" } } }').items).sort(), names('archiver-'));
  assert.deepEqual(labels(complete('{ "contexts": { "c": { "context": "|" } } }').items).sort(), names('context-'));
  // not elsewhere: a group's type is the official schema's business
  assert.equal(complete('{ "groups": { "g": { "type": "|" } } }').context, 'none');
});

test('# keys and _meta: a comment key hides no field, nothing is offered inside a comment, _meta never', () => {
  const { items } = complete(test1('throughput', '{ "#duration": "old", "dest": "b", | }'));
  assert.ok(labels(items).includes('duration'));
  assert.ok(!labels(items).some((l) => l.startsWith('#') || l === '_meta'));
  assert.equal(complete(test1('throughput', '{ "dest": "b", "#old": { | } }')).context, 'none');
  assert.equal(complete('{ "tests": { "#t": { "type": "throughput", "spec": { | } } } }').context, 'none');
});

test('unknown plug-in or a variable type: nothing of ours; variables still complete inside spec strings', () => {
  assert.equal(complete(test1('througput', '{ | }')).context, 'none');
  assert.equal(complete(test1('{% jq .x %}', '{ | }')).context, 'none');
  const v = complete(test1('latency', '{ "dest": "{% |" }'));
  assert.equal(v.context, 'variable');
});

test('every plug-in and version: the keys offered in an empty value are the ones its schema declares', () => {
  for (const file of readdirSync(pschedulerDataDir).filter((f) => /^(test|archiver|context)-/.test(f))) {
    const d = data(file);
    const wrap = d.kind === 'test' ? test1 : d.kind === 'archiver' ? archive : context;
    for (const v of Object.keys(d.versions)) {
      const declared = d.versions[v].properties;
      if (!declared) continue; // skeletons made of references / alternatives: covered by the cases above
      const body = d.select === 'single' || v === '1' ? '{ | }' : `{ "schema": ${v}, | }`;
      const { items } = complete(wrap(d.name, body));
      const current = items.filter((i) => !i.detail?.includes('needs schema'));
      const expected = Object.keys(declared).filter((k) => !(body.includes('"schema"') && k === 'schema'));
      assert.deepEqual(labels(current).sort(), expected.sort(), `${d.kind} ${d.name} schema ${v}`);
      for (const later of items.filter((i) => i.detail?.includes('needs schema'))) {
        const n = Number(/needs schema (\d+)/.exec(later.detail ?? '')![1]);
        assert.ok(n > Number(v), `${d.name} ${later.label} needs a later version than ${v}`);
        assert.ok(Object.keys(d.versions[String(n)].properties ?? {}).includes(later.label));
      }
    }
  }
});

test('right before the first key of a spec: keys, with a comma before the property that follows', () => {
  const { items, text } = complete(test1('throughput', '{|"dest": "b" }'));
  assert.equal(apply(text, byLabel(items, 'udp')), test1('throughput', '{"udp": ,"dest": "b" }'));
});

test('a key of a later version already selected says since which schema; array items complete their object keys', () => {
  const { items } = complete(test1('throughput', '{ "schema": 7, "dest": "b", | }'));
  assert.match(byLabel(items, 'fq-rate').detail ?? '', /since schema 7/);
  assert.doesNotMatch(byLabel(items, 'duration').detail ?? '', /since/);
  const retry = complete(archive('http', '{ "_url": "https://x/", "retry-policy": [ { | } ] }'));
  assert.deepEqual(labels(retry.items).sort(), ['attempts', 'wait']);
});

test('the schema edit follows the layout: its own line, indented like the first key, in a multi-line spec', () => {
  const { items, text } = complete(test1('throughput', '{\n        "dest": "b.example.net",\n        |\n      }'));
  const after = apply(text, byLabel(items, 'fq-rate'));
  assert.ok(after.includes('"spec": {\n        "schema": 7,\n        "dest": "b.example.net",'), after);
});
