// `$group::N` and `$requesting-agent`: the placeholders of pSConfig's 2017 drafts (still in perfSONAR's own test
// templates and in meshes written from them). pSConfig never expands them: the text reaches pScheduler as it is,
// which refuses it where a host is expected and stores it as data elsewhere. Reported where pSConfig expands
// variables (tests, archives, contexts, a task's `reference`), with the variable that replaced each one
// (legacy-variables.ts); fixes/ rewrites them.
import type { TemplateModel } from '../model';
import { findLegacyPlaceholders, type LegacyPlaceholder } from '../legacy-variables';
import { NODE, type Tree } from '../tree';
import { placeInTree } from '../variable-table';
import { diag, type TemplateDiagnostic } from './diagnostic';

const { COMMENT, PROPERTY, STRING } = NODE;

/** Placeholders inside string values pSConfig expands (not keys, not under `#` comments or `_meta`). */
export function legacyPlaceholderSites(model: TemplateModel): LegacyPlaceholder[] {
  const { text, tree: t } = model.parsed;
  const out: LegacyPlaceholder[] = [];
  for (const p of findLegacyPlaceholders(text)) {
    const n = t.at(p.start);
    if (n < 0 || t.type(n) !== STRING || p.end > t.end[n]) continue;
    const parent = t.parent[n];
    if (parent >= 0 && t.type(parent) === PROPERTY && parent + 1 === n) continue; // a key
    if (commentOrMeta(t, n)) continue;
    if (placeInTree(t, n).place === 'expanded') out.push(p);
  }
  return out;
}

function commentOrMeta(t: Tree, i: number): boolean {
  for (let n = i; n >= 0; n = t.parent[n])
    if (t.kind[n] & COMMENT || (t.type(n) === PROPERTY && t.strIs(n + 1, '_meta'))) return true;
  return false;
}

export function checkLegacyPlaceholders(model: TemplateModel): TemplateDiagnostic[] {
  return legacyPlaceholderSites(model).map((p) =>
    diag(
      'psconfig/legacy-placeholder',
      'error',
      `\`${p.text}\` is a placeholder of pSConfig's drafts, which pSConfig never expands: pScheduler receives the text \`${p.text}\` as it is. Write \`${p.variable}\` (the variable that replaced it).`,
      p.start,
      p.end,
    ),
  );
}
