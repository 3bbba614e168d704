// Every plug-in, every schema version: a minimal and a rich value pass, and the common mistakes fail on the
// token that is wrong (the value node, or the key for unknown keys).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptedVersions, allPlugins, type PluginData } from '../../../server/src/template/pscheduler/catalog';
import { checkJsonText, type ValueCheck } from '../../../server/src/template/pscheduler/check';
import { sample, versionSchema } from './samples';

function run(p: PluginData, value: unknown): { r: ValueCheck; text: string } {
  const text = JSON.stringify(value, null, 1);
  const r = checkJsonText(p.kind, p.name, text);
  assert.ok(r, `${p.kind}/${p.name} is known`);
  return { r, text };
}

const errorsOf = (r: ValueCheck): string[] => r.problems.filter((q) => q.severity === 'error').map((q) => q.message);

/** The value with `schema` as pSConfig sends it (tcp and udp data take none: their version 1 has no `schema`),
 *  and the few fields the programs' own rules tie together set consistently. */
function withSchema(p: PluginData, v: number, value: object): object {
  const props = versionSchema(p, v).properties ?? {};
  const out: Record<string, unknown> = 'schema' in props || p.kind === 'test' ? { schema: v, ...value } : { ...value };
  if (p.name === 'netreach' && 'gateway' in out) out.gateway = 1; // a host of the sample network
  if (p.name === 'throughput') delete out.loopback; // not together with single-ended
  return out;
}

/** Versions no value can pass (pscheduler-archiver-rabbitmq: version 3's `schema` enum is [2]). */
const NEVER_VALID = new Set(['archiver/rabbitmq/3']);

for (const p of allPlugins()) {
  for (const v of acceptedVersions(p)) {
    test(`${p.kind} ${p.name}, schema ${v}: minimal and rich values pass`, () => {
      const s = versionSchema(p, v);
      const minimal = withSchema(p, v, sample(p, s) as object);
      const rich = withSchema(p, v, sample(p, s, true) as object);
      if (NEVER_VALID.has(`${p.kind}/${p.name}/${v}`)) {
        const { r, text } = run(p, minimal);
        const [q] = r.problems;
        assert.equal(text.slice(q.node.offset, q.node.offset + q.node.length), String(v), 'refused at `schema`');
        return;
      }
      assert.deepEqual(errorsOf(run(p, minimal).r), [], JSON.stringify(minimal));
      assert.deepEqual(errorsOf(run(p, rich).r), [], JSON.stringify(rich));
    });

    const s = versionSchema(p, v);
    const closed = s.additionalProperties === false;
    const props = Object.entries(s.properties ?? {}).filter(([k]) => k !== 'schema');
    if (!props.length) continue;
    test(`${p.kind} ${p.name}, schema ${v}: mistakes fail on the right token`, () => {
      const base = withSchema(p, v, sample(p, s, true) as object) as Record<string, unknown>;
      if (p.name === 'netreach') delete base.gateway; // with a gateway, netreach ignores schema problems
      if (closed) {
        // a misspelt key: at the key, with the closest allowed key
        const [key] = props[0];
        const { [key]: value, ...rest } = base;
        const { r, text } = run(p, { ...rest, [`${key}x`]: value });
        const q = r.problems.find((x) => x.kind === 'unknown-property' || x.kind === 'needs-schema');
        assert.ok(q, `${key}x refused`);
        assert.equal(text.slice(q.node.offset, q.node.offset + q.node.length), JSON.stringify(`${key}x`));
        if (q.kind === 'unknown-property') assert.equal(q.closest, key);
      }
      for (const [key] of props) {
        // a wrong JSON type: at the value
        const wrong = typeof base[key] === 'string' ? 42 : typeof base[key] === 'object' ? 'text' : 'text';
        const { r, text } = run(p, { ...base, [key]: wrong });
        const q = r.problems.find((x) => x.path[0] === key && x.severity === 'error');
        const anyAccepted = r.problems.length === 0;
        if (anyAccepted) continue; // AnyJSON / String-with-anything fields take every type
        assert.ok(q, `${p.name}.${key} = ${JSON.stringify(wrong)}: ${r.problems.map((x) => x.message).join(' | ')}`);
        assert.equal(text.slice(q.node.offset, q.node.offset + q.node.length), JSON.stringify(wrong));
        assert.match(q.message, new RegExp(`\`${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``));
      }
      for (const req of s.required ?? []) {
        if (req === 'schema') continue;
        const { [req]: _, ...without } = base;
        const { r } = run(p, without);
        const q = r.problems.find((x) => x.kind === 'missing-property' && x.property === req);
        assert.ok(q, `${p.name} without ${req}`);
        assert.equal(q.node.offset, 0, 'reported on the object');
      }
    });
  }
}
