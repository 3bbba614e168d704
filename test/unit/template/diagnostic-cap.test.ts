// The cap on diagnostics keeps the worst: ordered by severity (document order within one) before the cut, the note
// counting what was left out per severity, and jq's later errors merged into a capped first pass as if everything
// had been cut at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  capDiagnostics,
  capNoteMessage,
  countBySeverity,
  MAX_DIAGNOSTICS,
  withCapNote,
} from '../../../server/src/template/diagnostic-cap';
import type { Severity, TemplateDiagnostic } from '../../../server/src/template/rules/diagnostic';
import { validateTemplate } from '../../../server/src/template/diagnostics';
import { unusedInventory } from '../../generated-templates';

const d = (severity: Severity, start: number): TemplateDiagnostic => ({
  code: 'psconfig/unused-definition',
  severity,
  message: `${severity} at ${start}`,
  start,
  end: start + 1,
});

test('ordered errors, warnings, information, hints; document order within each', () => {
  const list = [d('hint', 1), d('error', 50), d('information', 2), d('warning', 40), d('error', 3), d('hint', 0)];
  const { shown, omitted } = capDiagnostics(list);
  assert.deepEqual(
    shown.map((x) => `${x.severity}@${x.start}`),
    ['error@3', 'error@50', 'warning@40', 'information@2', 'hint@0', 'hint@1'],
  );
  assert.deepEqual(omitted, { error: 0, warning: 0, information: 0, hint: 0 });
  assert.equal(capNoteMessage({ shown, omitted }), undefined);
  assert.equal(withCapNote({ shown, omitted }), shown, 'no note when nothing was left out');
});

test('the cut keeps the worst; the note counts what it left out per severity', () => {
  // 3 hints first in the document, then 2 warnings, then an error, with room for 3.
  const list = [d('hint', 0), d('hint', 1), d('hint', 2), d('warning', 3), d('warning', 4), d('error', 5)];
  const capped = capDiagnostics(list, 2);
  assert.deepEqual(
    capped.shown.map((x) => `${x.severity}@${x.start}`),
    ['error@5', 'warning@3'],
  );
  assert.deepEqual(capped.omitted, { error: 0, warning: 1, information: 0, hint: 3 });
  const withNote = withCapNote(capped);
  assert.equal(withNote.length, 3);
  const note = withNote[2];
  assert.equal(note.code, 'psconfig/too-many-problems');
  assert.equal(note.severity, 'information');
  assert.equal(note.start, 0, 'at the start of the document, where it is seen');
  assert.equal(
    note.message,
    '4 more problems are not shown (1 warning, 3 hints); the 2 shown are the most severe, errors first.',
  );
  assert.deepEqual(countBySeverity(list), { error: 1, warning: 2, information: 0, hint: 3 });
});

test("jq's later errors merged into a capped first pass: the same as one cut of everything", () => {
  const first = [d('hint', 0), d('hint', 1), d('warning', 2), d('hint', 3), d('hint', 4)];
  const later = [d('error', 9), d('hint', 10)];
  const once = capDiagnostics([...first, ...later], 3);
  const capped = capDiagnostics(first, 3);
  const merged = capDiagnostics([...capped.shown, ...later], 3, capped.omitted);
  assert.deepEqual(merged, once);
  assert.deepEqual(
    merged.shown.map((x) => `${x.severity}@${x.start}`),
    ['error@9', 'warning@2', 'hint@0'],
  );
  assert.deepEqual(merged.omitted, { error: 0, warning: 0, information: 0, hint: 4 });
});

test('a generated inventory: the unknown group is the first of the 5,000 shown, every hint counted', () => {
  const inv = unusedInventory(1_200_000, 20);
  assert.ok(inv.unused > MAX_DIAGNOSTICS, `${inv.unused} unused addresses`);
  const all = validateTemplate(inv.text).diagnostics;
  assert.deepEqual(countBySeverity(all), { error: 1, warning: 0, information: 0, hint: inv.unused });
  // In document order the error is the very last problem: a cut in that order dropped it.
  assert.equal(all[all.length - 1].code, 'psconfig/unknown-group');
  const capped = capDiagnostics(all);
  assert.equal(capped.shown.length, MAX_DIAGNOSTICS);
  assert.equal(capped.shown[0].code, 'psconfig/unknown-group');
  assert.match(capped.shown[0].message, new RegExp(inv.missingGroup));
  assert.deepEqual(capped.omitted, { error: 0, warning: 0, information: 0, hint: inv.unused - (MAX_DIAGNOSTICS - 1) });
});
