// Hovers inside test specs, archiver data and context data (field: description, type and unit, allowed values,
// versions, verdict for the value's version) and on test types / archivers / contexts (versions, bundle, tools).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { hoverAt } from '../../../server/src/template/navigation/hover';
import { pschedulerDataDir } from '../../fixtures';
import { atCursor } from './nav-fixture';

const test1 = (type: string, spec: string): string => `{ "tests": { "t": { "type": "${type}", "spec": ${spec} } } }`;
const archive = (archiver: string, body: string): string =>
  `{ "archives": { "a": { "archiver": "${archiver}", "data": ${body} } } }`;

function hover(marked: string): { markdown: string; text: string; start: number; end: number } {
  const { model, offset } = atCursor(marked);
  const h = hoverAt(model, offset);
  assert.ok(h, `a hover at ${marked}`);
  return { ...h, text: model.text };
}

interface ToolFile {
  name: string;
  tests: string[];
}
const toolsRunning = (testType: string): string[] =>
  readdirSync(pschedulerDataDir)
    .filter((f) => f.startsWith('tool-'))
    .map((f) => JSON.parse(readFileSync(join(pschedulerDataDir, f), 'utf8')) as ToolFile)
    .filter((t) => t.tests.includes(testType))
    .map((t) => t.name);

test('a throughput key: description, type with its unit, versions, allowed in the version read', () => {
  const h = hover(test1('throughput', '{ "dest": "b", "dur|ation": "PT10S" }'));
  assert.equal(h.text.slice(h.start, h.end), '"duration"');
  assert.match(h.markdown, /ISO 8601 duration/);
  assert.match(h.markdown, /pScheduler type Duration/);
  assert.match(h.markdown, /In every throughput schema \(1–7\)/);
  assert.match(h.markdown, /Allowed in this throughput spec \(schema 1, the default/);
});

test('a later-version key: introduced in schema 7, refused at the default schema, allowed with schema 7', () => {
  const refused = hover(test1('throughput', '{ "dest": "b", "fq-r|ate": 1000 }')).markdown;
  assert.match(refused, /Introduced in throughput schema 7/);
  assert.match(refused, /\*\*Not allowed\*\* in this throughput spec .*needs `"schema": 7`/);
  const allowed = hover(test1('throughput', '{ "schema": 7, "dest": "b", "fq-r|ate": 1000 }')).markdown;
  assert.match(allowed, /Allowed in this throughput spec \(schema 7\)/);
  // hovering the value says the same about the field
  assert.match(hover(test1('throughput', '{ "dest": "b", "fq-rate": 10|00 }')).markdown, /Not allowed/);
});

test('latency flip, enum values, required fields', () => {
  assert.match(hover(test1('latency', '{ "dest": "b", "fl|ip": true }')).markdown, /true or false/);
  const congestion = hover(test1('throughput', '{ "dest": "b", "conges|tion": "cubic" }')).markdown;
  assert.match(congestion, /one of `reno`, `cubic`/);
  assert.match(hover(archive('http', '{ "_u|rl": "https://x.example.net/" }')).markdown, /Required/);
});

test("a context's data key and a nested key", () => {
  assert.match(
    hover('{ "contexts": { "c": { "context": "linuxnns", "data": { "names|pace": "blue" } } } }').markdown,
    /namespace/,
  );
  const lower = hover(test1('latency', '{ "dest": "b", "data-ports": { "lo|wer": 5000, "upper": 5100 } }')).markdown;
  assert.match(lower, /field of `data-ports` in the latency spec/);
  assert.match(lower, /port number/);
});

test('# keys, _meta and unknown keys inside a spec', () => {
  assert.match(hover(test1('latency', '{ "dest": "b", "#no|te": 1 }')).markdown, /comment/);
  assert.match(hover(archive('http', '{ "_url": "https://x/", "_me|ta": {} }')).markdown, /Move it up one level/);
  const unknown = hover(test1('throughput', '{ "dest": "b", "omit-inter|val": 1 }')).markdown;
  assert.match(unknown, /\*\*not\*\* a field of the throughput spec/);
  assert.match(unknown, /Did you mean `omit`\?/);
  // template text stays inside its code span
  const odd = hover(test1('throughput', '{ "dest": "b", "a`|b": 1 }')).markdown;
  assert.ok(odd.startsWith('``a`b``'), odd);
});

test('on a test type: versions, bundle, the tools that run it; an unknown one gets the closest', () => {
  const h = hover(test1('throu|ghput', '{ "schema": 3, "dest": "b" }'));
  assert.equal(h.text.slice(h.start, h.end), '"throughput"');
  assert.match(h.markdown, /pScheduler test type/);
  assert.match(h.markdown, /`schema` 1–7/);
  assert.match(h.markdown, /This spec: schema 3/);
  assert.match(h.markdown, /core bundle/);
  for (const tool of toolsRunning('throughput')) assert.ok(h.markdown.includes(`\`${tool}\``), tool);
  assert.match(h.markdown, /pscheduler-test-throughput/);
  const unknown = hover(test1('througp|ut', '{}')).markdown;
  assert.match(unknown, /no test type `througput`: did you mean `throughput`\?/);
});

test('on an archiver and a context name', () => {
  const http = hover(archive('ht|tp', '{ "_url": "https://x/" }')).markdown;
  assert.match(http, /pScheduler archiver/);
  assert.match(http, /`schema` 1–4/);
  assert.ok(!/Run by/.test(http), 'no tools for archivers');
  assert.match(hover('{ "contexts": { "c": { "context": "linux|vrf", "data": {} } } }').markdown, /pScheduler context/);
});

test('variables keep their own hover inside a spec', () => {
  const h = hover(test1('latency', '{ "dest": "{% addr|ess[1] %}" }'));
  assert.match(h.markdown, /address/);
  assert.ok(!/field of/.test(h.markdown));
});

test('schema itself: the versions the plug-in takes and the one read; a refused schema is read as 1', () => {
  const h = hover(test1('throughput', '{ "sch|ema": 3, "dest": "b" }')).markdown;
  assert.match(h, /throughput schema version: 1–7 \(1 when absent\)/);
  assert.match(h, /This throughput spec: schema 3\./);
  const refused = hover(test1('throughput', '{ "schema": 9, "dest": "b", "dur|ation": "PT5S" }')).markdown;
  assert.match(refused, /a `schema` pScheduler does not accept for throughput \(it takes 1–7\), read here as schema 1/);
});

test('a throughput key some tools leave out names them (their can-run option lists)', () => {
  const tools = readdirSync(pschedulerDataDir)
    .filter((f) => f.startsWith('tool-'))
    .map(
      (f) => JSON.parse(readFileSync(join(pschedulerDataDir, f), 'utf8')) as ToolFile & { supportedOptions?: string[] },
    )
    .filter((t) => t.tests.includes('throughput'));
  const without = tools.filter((t) => t.supportedOptions && !t.supportedOptions.includes('fq-rate')).map((t) => t.name);
  assert.ok(without.length > 0, 'some throughput tool does not take fq-rate');
  const h = hover(test1('throughput', '{ "schema": 7, "dest": "b", "fq-r|ate": 1000 }')).markdown;
  for (const name of without) assert.ok(h.includes(`\`${name}\``), `${name} in ${h}`);
  assert.ok(!/Tools whose option list/.test(hover(test1('throughput', '{ "dest": "b", "de|st": "c" }')).markdown));
});
