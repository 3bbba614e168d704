// Whether pSConfig's agent takes a template at all, each expectation read from perfsonar/psconfig 5.2.4 (the
// vendored tarball in test/pscheduler/vendor): base_agent.py ~354-402 (validate, includes, validate_refs),
// client/psconfig/config.py validate ~198-208 and validate_refs ~246-340, base_connect.py expand_config ~216-245.
// The same verdicts, compared with pSConfig's own Config class on real and mutated templates, are in the live suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  agentRejection,
  firstSchemaProblem,
  referenceProblems,
} from '../../../server/src/template/expand/agent-acceptance';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { addrs, expand, pairs, sel, template } from './helpers';

const base = (): Record<string, unknown> =>
  template({ addresses: addrs('a', 'b'), groups: { g: { type: 'mesh', addresses: sel('a', 'b') } } });

test('the official schema as python-jsonschema checks it: `excludes-self: false` rejects the whole template', async () => {
  const t = base();
  (t.groups as Record<string, Record<string, unknown>>).g['excludes-self'] = false;
  const r = await expand(t);
  assert.equal(r.rejected, true);
  assert.deepEqual(r.combinations, []);
  // each task of the template is listed with no task created and the rejection as its error (lens, hover)
  assert.deepEqual(
    r.tasks.map((t) => [t.task, t.count, /^pSConfig's agent rejects the template/.test(t.error ?? '')]),
    [['t-g', 0, true]],
  );
  // GroupSpecification is an anyOf of the three group types: the group as a whole matches none of them (the same
  // path and words pSConfig 5.2.4 logs: "JSON Path: groups/g ... is not valid under any of the given schemas").
  assert.match(r.error ?? '', /psconfig_schema_validation_error.*JSON Path: groups\/g: .* is not valid under any of/);
});

test('formats are not checked (no FormatChecker), `#` keys are stripped first, unknown keys are not allowed', () => {
  assert.equal(
    firstSchemaProblem({ ...base(), addresses: { a: { address: 'not a host!!' }, b: { address: 'b' } } }),
    undefined,
  );
  const commented = { ...base(), '#why': 'a note' };
  return expand(commented).then((r) => {
    assert.equal(r.rejected, undefined);
    assert.deepEqual(pairs(r), ['a->b', 'b->a']);
    assert.match(
      firstSchemaProblem({ ...base(), extra: 1 }) ?? '',
      /Additional properties are not allowed \('extra' was unexpected\)/,
    );
  });
});

test('the template is checked before its includes are read: sections only an include supplies fail `required`', async () => {
  const t = base();
  delete t.tests;
  t.includes = ['/srv/tests.json'];
  const r = await expand(t, {
    loadIncludes: async (refs) =>
      refs.map((ref) => ({
        ref,
        kind: 'local',
        relative: false,
        status: 'read',
        text: JSON.stringify({ tests: { pair: { type: 'rtt', spec: { dest: '{% address[1] %}' } } } }),
      })),
  });
  assert.equal(r.rejected, true);
  assert.match(r.error ?? '', /'tests' is a required property/);
});

test('an include that cannot be read rejects the template; one this tool did not read is only a note', async () => {
  const t = { ...base(), includes: ['/srv/gone.json'] };
  const failed = await expand(t, {
    loadIncludes: async (refs) =>
      refs.map((ref) => ({ ref, kind: 'local', relative: false, status: 'failed', error: 'not found' })),
  });
  assert.equal(failed.rejected, true);
  assert.match(
    failed.error ?? '',
    /Error expanding include directives in JSON: Error including \/srv\/gone\.json: not found/,
  );
  const skipped = await expand(t, {
    loadIncludes: async (refs) =>
      refs.map((ref) => ({ ref, kind: 'local', relative: false, status: 'skipped', reason: 'not allowed here' })),
  });
  assert.equal(skipped.rejected, undefined);
  assert.deepEqual(pairs(skipped), ['a->b', 'b->a']);
});

test('validate_refs: its sentences, its order, and what it does not check', () => {
  const t = {
    addresses: {
      a: { address: 'a', host: 'nohost', contexts: ['noctx'], labels: { l: { address: 'l' } } },
      b: {
        address: 'b',
        'remote-addresses': { a: { address: 'r', contexts: ['rctx'], labels: { rl: { address: 'x' } } } },
      },
    },
    groups: {
      g: { type: 'mesh', addresses: [{ name: 'a', label: 'missing' }, { name: 'b', label: 'rl' }, { name: 'zz' }] },
      c: { type: 'list', addresses: [{ class: 'no-such-class' }] },
      d: { type: 'disjoint', 'a-addresses': [{ name: 'a' }], 'b-addresses': [{ name: 'gone' }] },
    },
    hosts: { h: { archives: ['noarch'] } },
    tests: { t: { type: 'rtt', spec: {} } },
    tasks: { x: { group: 'nog', test: 'not', schedule: 'nos', archives: ['noarch2'] } },
  };
  assert.deepEqual(referenceProblems(t as never), [
    'Address a references a host object nohost that does not exist.',
    'Address a references a context object noctx that does not exist.',
    // b's remote definition for a: its context; its label's missing context would be next (it has none)
    'Address b has a remote definition for a using a context object rctx that does not exist.',
    // a label found only on b's remote definition counts (config.py _ref_check_label)
    'Group g references a label missing for address object a that does not exist.',
    'Group g references an address object zz that does not exist.',
    // class selectors are not checked (config.py calls address_class() without a name; the error is swallowed)
    'Group d references an address object gone that does not exist.',
    'Host h references an archive noarch that does not exist.',
    'Task x references a group nog that does not exist.',
    'Task x references a test not that does not exist.',
    'Task x references a schedule nos that does not exist.',
    'Task x references an archive noarch2 that does not exist.',
  ]);
  assert.match(
    agentRejection(t as never) ?? '',
    /psconfig_ref_validation_error\): Address a references a host object nohost that does not exist\. \(and 10 more\)$/,
  );
});

test('what makes validate_refs raise: an address label with contexts; an unchecked group of no known type', () => {
  // config.py ~283-286 iterates `label.context_refs` uncalled: TypeError (pSConfig 5.2.4's Config on this template
  // raises "'method' object is not iterable"), so the agent creates nothing even though every reference exists.
  const labelled = {
    ...base(),
    addresses: { a: { address: 'a', labels: { v4: { address: '10.0.0.1', contexts: ['ns'] } } }, b: { address: 'b' } },
    contexts: { ns: { context: 'linuxnns', data: { namespace: 'x' } } },
  };
  assert.equal(firstSchemaProblem(labelled as never), undefined);
  assert.match(agentRejection(labelled) ?? '', /addresses\/a\/labels\/v4 has contexts.*TypeError/);
  // and the editor says so where it is written: an error on the label's `contexts`
  const text = JSON.stringify(labelled, null, 2);
  const crash = validateTemplate(text).diagnostics.filter((d) => d.code === 'psconfig/label-contexts-crash');
  assert.deepEqual(
    crash.map((d) => [d.severity, text.slice(d.start, d.end)]),
    [['error', '"contexts"']],
  );
  // A group named with a space is not validated by the schema (patternProperties name pattern); GroupFactory builds
  // nothing for an unknown type and validate_refs reads `.type` of None (AttributeError, config.py ~294).
  const t = {
    ...base(),
    groups: { 'a group': { type: 'ring', addresses: [] }, g: { type: 'mesh', addresses: sel('a', 'b') } },
  };
  assert.equal(firstSchemaProblem(t as never), undefined);
  assert.match(
    agentRejection(t as never) ?? '',
    /fails while checking this template's references.*groups\/a group has type 'ring'/,
  );
});
