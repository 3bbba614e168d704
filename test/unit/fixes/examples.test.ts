// Every real template of test/fixtures/psconfig/examples/ through the fixes, as `psconfig-tools fix --write` does:
// afterwards the checks report none of the fixed diagnostics (except those the fix lists as unfixable, with the
// reason), the expansion gives the same agents, tasks and address pairs as before, the diff touches only the
// archives and the strings that held a placeholder, and a second run changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandTemplate } from '../../../server/src/template/expand';
import { dashboardPairsOf } from '../../../server/src/template/expand/dashboard-pairs';
import { createJqRunner } from '../../../server/src/template/jq';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { analyseTemplate } from '../../../server/src/template/model';
import { sectionNode } from '../../../server/src/template/symbols';
import { LineIndex } from '../../../server/src/template/positions';
import { fixText } from '../../../server/src/template/fixes/fix-text';
import { FIXABLE_CODES } from '../../../server/src/template/fixes/fixes';
import { findLegacyPlaceholders } from '../../../server/src/template/legacy-variables';
import { unifiedDiff } from '../../../cli/unified-diff';
import { exampleFiles, examplesDir } from '../../fixtures';

const jq = createJqRunner({ jqPath: process.env.JQ_PATH || '/usr/bin/jq' });

/** What an agent would do, per combination: task, members, their addresses, who schedules, whether it expands;
 *  and where the mesh dashboard reads each task's results (the esmond interface 5.x still serves). */
async function expansion(text: string): Promise<{ combinations: string[]; dashboard: string[] }> {
  const template: unknown = JSON.parse(text);
  const r = await expandTemplate(template, { jq });
  return {
    combinations: r.combinations.map((c) =>
      JSON.stringify([
        c.task,
        c.addresses,
        c.addressValues,
        c.agent,
        c.flip ?? false,
        c.error && !c.refused ? 'failed' : 'ok',
      ]),
    ),
    dashboard: dashboardPairsOf({ ...r, uri: 'x', version: null }, template).tasks.map((t) =>
      JSON.stringify([t.task, t.archives]),
    ),
  };
}

/** Old-text line numbers (1-based) the unified diff removes or inserts before. */
function touchedLines(before: string, after: string): number[] {
  const out: number[] = [];
  let old = 0;
  for (const line of unifiedDiff(before, after, 'a', 'b').split('\n')) {
    const h = /^@@ -(\d+)(?:,(\d+))?/.exec(line);
    if (h) old = Number(h[1]) - (h[2] === '0' ? 0 : 1);
    else if (line.startsWith('-') && !line.startsWith('---')) out.push(++old);
    else if (line.startsWith('+') && !line.startsWith('+++')) out.push(old);
    else if (line.startsWith(' ')) old++;
  }
  return out;
}

for (const file of exampleFiles()) {
  test(`fix ${file}: fixed codes gone, same agents, tasks and pairs, only archives and placeholders touched`, async () => {
    const before = readFileSync(join(examplesDir, file), 'utf8');
    const r = fixText(before);
    assert.equal(r.syntaxError, undefined);
    // nothing of the fixed codes is left, except what the fix reports as unfixable
    const left = validateTemplate(r.text).diagnostics.filter((d) => {
      if (!(FIXABLE_CODES as readonly string[]).includes(d.code)) return false;
      return d.code.endsWith('unknown-property') ? r.text.slice(d.start, d.end) === '"_meta"' : true;
    });
    assert.equal(left.length, r.unfixed.length, JSON.stringify({ left, unfixed: r.unfixed }));
    for (const u of r.unfixed) assert.ok(u.notes[0], 'an unfixed diagnostic says why');
    // the agents see the same combinations; the dashboard reads the same archives
    assert.deepEqual(await expansion(r.text), await expansion(before));
    // byte for byte outside the archives and the strings that held placeholders
    const model = analyseTemplate(before);
    const lines = new LineIndex(before);
    const archives = sectionNode(model.parsed.root, 'archives');
    const allowed = new Set<number>();
    if (archives) {
      const from = lines.positionAt(archives.offset).line + 1;
      const to = lines.positionAt(archives.offset + archives.length).line + 1;
      for (let l = from; l <= to + 1; l++) allowed.add(l);
    }
    for (const p of findLegacyPlaceholders(before)) allowed.add(lines.positionAt(p.start).line + 1);
    const stray = touchedLines(before, r.text).filter((l) => !allowed.has(l));
    assert.deepEqual(stray, [], 'lines changed outside the archives and placeholders');
    // idempotent
    const again = fixText(r.text);
    assert.equal(again.text, r.text);
    assert.deepEqual(again.applied, []);
  });
}

test('the examples that need fixes get them (the floor of issue 20)', () => {
  const counts: Record<string, number> = {};
  for (const file of exampleFiles())
    for (const a of fixText(readFileSync(join(examplesDir, file), 'utf8')).applied)
      counts[a.code] = (counts[a.code] ?? 0) + 1;
  // 25 esmond archives in 14 templates, the skeleton's _meta in data, 8 draft placeholders in 2 templates
  assert.ok((counts['psconfig/esmond-archiver'] ?? 0) >= 20, JSON.stringify(counts));
  assert.ok((counts['psconfig/archiver-data-unknown-property'] ?? 0) >= 1, JSON.stringify(counts));
  assert.ok((counts['psconfig/legacy-placeholder'] ?? 0) >= 8, JSON.stringify(counts));
});
