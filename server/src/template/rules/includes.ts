// One diagnostic per `includes` entry that needs one, on the entry itself: a file that cannot be read or merged
// (pSConfig's `psconfig validate` fails the same way: "Error including …"), an entry not read by our choice
// (consent, workspace trust, folder boundary), a relative path (pSConfig opens it from its working directory), a
// template including itself, an included file's own includes (never read by pSConfig), and names used in an
// included file that the merged template does not define.
import type { TemplateModel } from '../model';
import type { IncludedEntry, IncludeSet } from '../includes/include-set';
import type { Reference } from '../symbols';
import { singular } from '../schema/describe';
import { diag, type DiagnosticCode, type TemplateDiagnostic } from './diagnostic';
import { posix } from 'node:path';

const LISTED = 5;

export function checkIncludes(
  model: TemplateModel,
  includes: IncludeSet,
  unresolved: Reference[],
): TemplateDiagnostic[] {
  const out: TemplateDiagnostic[] = [];
  const pending = unresolvedSummary(unresolved);
  const missing = includes.complete ? missingInIncludedFiles(model, includes) : new Map<IncludedEntry, string[]>();
  for (const e of includes.entries) {
    const o = e.outcome;
    const at = (code: DiagnosticCode, severity: TemplateDiagnostic['severity'], message: string): void => {
      out.push(diag(code, severity, message, e.item.offset + 1, e.item.offset + e.item.length - 1));
    };
    const relative = o.relative ? ` ${relativeNote(o.ref, o.target)}` : '';
    if (o.status === 'self') {
      at(
        'psconfig/include-cycle',
        'warning',
        `This template includes itself (${o.target}): pSConfig reads it again and merges nothing, since every name already exists. Remove the entry.`,
      );
      continue;
    }
    if (o.status === 'failed') {
      at('psconfig/include', 'error', `Error including ${o.ref}: ${o.error}.${relative}${pending}`);
      continue;
    }
    if (o.status === 'skipped') {
      at(
        'psconfig/include-skipped',
        pending ? 'warning' : 'information',
        `${o.ref} is not read: ${o.reason}.${pending || ' Names it may define are not checked.'}`,
      );
      continue;
    }
    if (e.invalid) {
      at('psconfig/include', 'error', `Error including ${o.ref}: ${e.invalid}.${relative}${pending}`);
      continue;
    }
    if (o.relative) at('psconfig/include-relative', 'warning', relativeNote(o.ref, o.target));
    const names = missing.get(e);
    if (names?.length) {
      const more = names.length > LISTED ? ` (and ${names.length - LISTED} more)` : '';
      at(
        'psconfig/include',
        'error',
        `After merging ${o.ref}, ${names.slice(0, LISTED).join('; ')}${more}: pSConfig's reference check fails on the merged template.`,
      );
    }
    if (e.nested.length) {
      const back = e.nestedBack
        ? ' (one of them is this template: pSConfig never follows it, so there is no loop)'
        : '';
      at(
        'psconfig/include-nested',
        'information',
        `${o.ref} has includes of its own (${e.nested.slice(0, LISTED).join(', ')}${e.nested.length > LISTED ? ', …' : ''}), which pSConfig does not read: only this template's includes are merged, one level deep${back}.`,
      );
    }
  }
  return out;
}

function relativeNote(ref: string, target: string | undefined): string {
  return `\`${ref}\` is a relative path: pSConfig opens it from the working directory of the program reading the template, not from this template's folder${
    target ? ` (read here as ${target})` : ''
  }; the pSConfig agent runs from / and would look for ${posix.resolve('/', ref.replace(/^file:\/\//, ''))}. Use an absolute path or URL.`;
}

/** " N names used here are defined neither in this template nor in the includes that were read: group `g`, …" */
function unresolvedSummary(unresolved: Reference[]): string {
  if (unresolved.length === 0) return '';
  const seen = new Set<string>();
  const names: string[] = [];
  for (const r of unresolved) {
    const k = `${r.kind}\u0000${r.name}`;
    if (seen.has(k)) continue;
    seen.add(k);
    names.push(`${singular(r.kind)} \`${r.name}\``);
  }
  const more = names.length > LISTED ? `, and ${names.length - LISTED} more` : '';
  return ` Until it is read, ${names.length === 1 ? 'one name' : `${names.length} names`} used here cannot be checked (they may come from it): ${names.slice(0, LISTED).join(', ')}${more}.`;
}

/**
 * References inside the merged objects of included files that the merged template does not define (pSConfig
 * validates references after merging). An object shadowed by the template or an earlier include is not merged.
 */
function missingInIncludedFiles(model: TemplateModel, includes: IncludeSet): Map<IncludedEntry, string[]> {
  const out = new Map<IncludedEntry, string[]>();
  const merged = includes.merged;
  const defined = (kind: Reference['kind'], name: string): boolean =>
    model.index.definitionsOf(kind, name).length > 0 || includes.defines(kind, name);
  merged.forEach((e, i) => {
    const names: string[] = [];
    for (const r of e.index.references) {
      if (r.isKey || r.kind === 'labels' || r.field === 'default-address-label') continue;
      if (model.index.definitionsOf(r.ownerKind, r.ownerName).length > 0) continue;
      if (merged.slice(0, i).some((p) => p.index.definitionsOf(r.ownerKind, r.ownerName).length > 0)) continue;
      if (defined(r.kind, r.name)) continue;
      const line = `${singular(r.ownerKind)} ${r.ownerName} references ${singular(r.kind)} ${r.name} that does not exist`;
      if (!names.includes(line)) names.push(line);
    }
    if (names.length) out.set(e, names);
  });
  return out;
}
