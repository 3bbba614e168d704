// Completion and the variable rule read one table (variable-table.ts) on one model: the `[N]` indexes completion
// offers inside an object are exactly those the rule accepts there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { analyseTemplate } from '../../../server/src/template/model';
import { completeAt } from '../../../server/src/template/navigation/completion';
import { members, propertyValue, type JsonNode } from '../../../server/src/template/parse';
import { sectionNode } from '../../../server/src/template/symbols';
import { exampleFiles, exampleText } from '../../fixtures';

const PROBED = [0, 1, 2, 3];
const PROBE = PROBED.map((i) => `{% address[${i}] %}`).join(' ');

/** Indexes of `address[N]` completion offers at offset. */
function offeredIndexes(text: string, offset: number): number[] {
  const items = completeAt(analyseTemplate(text), offset).items;
  return items
    .map((i) => /^address\[(\d+)\]$/.exec(i.label))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]));
}

/** Indexes of the probe's variables (starting at probeAt) that raise no psconfig/variable-index. */
function acceptedIndexes(text: string, probeAt: number): number[] {
  const bad = new Set(
    validateTemplate(text)
      .diagnostics.filter((d) => d.code === 'psconfig/variable-index')
      .map((d) => d.start),
  );
  return PROBED.filter((i) => !bad.has(probeAt + PROBE.indexOf(`{% address[${i}] %}`)));
}

/** The text with a probe string property inserted as the first member of `obj`; the probe's offset. */
function withProbe(text: string, obj: JsonNode, wrap = (s: string): string => s): { text: string; probeAt: number } {
  const at = obj.offset + 1;
  const sep = (obj.children ?? []).length > 0 ? ',' : '';
  const inserted = wrap(`"probe-variables": "${PROBE}"`);
  return { text: text.slice(0, at) + inserted + sep + text.slice(at), probeAt: at + inserted.indexOf(PROBE) };
}

/** Where pSConfig expands variables in a template: every test, archive and context, and every task's reference. */
function probes(text: string): { where: string; text: string; probeAt: number }[] {
  const root = analyseTemplate(text).parsed.root;
  const out: { where: string; text: string; probeAt: number }[] = [];
  for (const section of ['tests', 'archives', 'contexts'] as const) {
    for (const [name, prop] of members(sectionNode(root, section))) {
      const value = prop.children?.[1];
      if (value?.type === 'object') out.push({ where: `${section}.${name}`, ...withProbe(text, value) });
    }
  }
  for (const [name, prop] of members(sectionNode(root, 'tasks'))) {
    const task = prop.children?.[1];
    if (task?.type !== 'object') continue;
    const ref = propertyValue(task, 'reference');
    if (ref?.type === 'object') out.push({ where: `tasks.${name}.reference`, ...withProbe(text, ref) });
    else if (!ref)
      out.push({
        where: `tasks.${name}.reference (added)`,
        ...withProbe(text, task, (p) => `"reference": {${p}}`),
      });
  }
  return out;
}

test('a context used only by the addresses of a mesh group offers address[0] and address[1], and accepts both', () => {
  const text = JSON.stringify(
    {
      addresses: {
        a: { address: 'a.example.net', contexts: ['ns'] },
        b: { address: 'b.example.net', contexts: ['ns'] },
        c: { address: 'c.example.net' },
      },
      contexts: { ns: { context: 'linux-namespace', data: { namespace: '{% address[1] %}' } } },
      groups: {
        pairs: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }] },
        single: { type: 'list', addresses: [{ name: 'c' }] },
      },
      tests: { t: { type: 'rtt', spec: { dest: '{% address[0] %}' } } },
      tasks: { 'pair-task': { group: 'pairs', test: 't' }, 'list-task': { group: 'single', test: 't' } },
    },
    null,
    2,
  );
  const diagnostics = validateTemplate(text).diagnostics.filter((d) => d.code === 'psconfig/variable-index');
  assert.deepEqual(diagnostics, []);
  const cursor = text.indexOf('{% address[1] %}') + '{% '.length;
  assert.deepEqual(offeredIndexes(text, cursor), [0, 1]);
  // ...while the test, also used by the list-group task, offers (and accepts) index 0 only.
  assert.deepEqual(offeredIndexes(text, text.indexOf('{% address[0] %}') + '{% '.length), [0]);
});

test('every object of every example: completion offers exactly the indexes that raise no psconfig/variable-index', () => {
  let checked = 0;
  for (const file of exampleFiles()) {
    for (const p of probes(exampleText(file))) {
      const cursor = p.probeAt + '{% '.length;
      assert.deepEqual(offeredIndexes(p.text, cursor), acceptedIndexes(p.text, p.probeAt), `${file}: ${p.where}`);
      checked++;
    }
  }
  assert.ok(checked > 100, `only ${checked} objects probed`);
});
