// The perfSONAR 4 → 5 fixes, one per diagnostic: what the language server offers as quick fixes and what
// `psconfig-tools fix` applies. Each fix reads the analysis of the document version the diagnostic was made on
// (its model) and returns text edits that touch only what it fixes (json-text.ts).
//
//   psconfig/esmond-archiver            esmond archive → perfSONAR 5's logstash http archive (esmond-to-http.ts)
//   psconfig/archiver-data-unknown-property, spec-unknown-property, context-data-unknown-property on `_meta`
//                                       `_meta` moved up out of `data`/`spec` (meta-up.ts)
//   psconfig/legacy-placeholder         `$group::N` → `{% address[N] %}`, `$requesting-agent` → `{% scheduled_by_address %}`
//   psconfig/archive-localhost          a loopback archive host → `{% scheduled_by_address %}` or a chosen host
import { isIP } from 'node:net';
import type { TemplateModel } from '../model';
import { nodeAtOffset, type JsonNode } from '../parse';
import { isLoopbackHost, variableForPlaceholder } from '../legacy-variables';
import { loopbackArchives, splitUrl, type LoopbackArchive } from '../rules/archive-localhost';
import type { DiagnosticCode } from '../rules/codes';
import { sectionNode } from '../symbols';
import { esmondToHttp } from './esmond-to-http';
import { editsDisjoint, type TextEditOffsets } from './json-text';
import { metaInContainer, metaUpFix } from './meta-up';

/** The codes with a fix, in the order `fix` applies them when two would touch the same text. */
export const FIXABLE_CODES = [
  'psconfig/esmond-archiver',
  'psconfig/archiver-data-unknown-property',
  'psconfig/spec-unknown-property',
  'psconfig/context-data-unknown-property',
  'psconfig/legacy-placeholder',
  'psconfig/archive-localhost',
] as const satisfies readonly DiagnosticCode[];

export type FixableCode = (typeof FIXABLE_CODES)[number];

export function isFixableCode(code: string | undefined): code is FixableCode {
  return (FIXABLE_CODES as readonly string[]).includes(code ?? '');
}

/** Where a loopback archive host goes: each scheduling agent's own archive, or one named host. */
export type LocalhostChoice = { kind: 'scheduled-by' } | { kind: 'host'; host: string };

export const SCHEDULED_BY: LocalhostChoice = { kind: 'scheduled-by' };

export interface MigrationFix {
  code: FixableCode;
  title: string;
  edits: TextEditOffsets[];
  /** The fix to apply when the user asks for "the" fix (the first for localhost: `{% scheduled_by_address %}`). */
  preferred: boolean;
  /** What the fix could not carry over, and why. */
  notes: string[];
}

export interface FixOutcome {
  fixes: MigrationFix[];
  /** Why there is no fix for a diagnostic of a fixable code. */
  reason?: string;
}

export interface FixRequest {
  start: number;
  end: number;
  code?: string;
}

/** The fixes for one diagnostic (alternatives: the localhost fix has one per choice). */
export function migrationFixes(
  model: TemplateModel,
  d: FixRequest,
  localhost: readonly LocalhostChoice[] = [SCHEDULED_BY],
): FixOutcome {
  if (!isFixableCode(d.code)) return { fixes: [] };
  if (model.parsed.syntaxErrors.length || model.parsed.approximate)
    return { fixes: [], reason: 'the template has syntax errors' };
  const { text, root } = model.parsed;
  const at = nodeAtOffset(root, d.start, false);
  const code = d.code;
  switch (code) {
    case 'psconfig/esmond-archiver': {
      if (at?.type !== 'string' || at.offset !== d.start || at.value !== 'esmond' || !isArchiverValue(at))
        return { fixes: [] };
      const r = esmondToHttp(text, at);
      if ('reason' in r) return { fixes: [], reason: `archive ${archiveNameOf(at)}: ${r.reason}` };
      return one({
        code,
        title: `Convert to perfSONAR 5's logstash http archive (${r.url})`,
        edits: r.edits,
        preferred: true,
        notes: r.dropped.map((f) => `archive ${archiveNameOf(at)}: dropped ${f}`),
      });
    }
    case 'psconfig/archiver-data-unknown-property':
    case 'psconfig/spec-unknown-property':
    case 'psconfig/context-data-unknown-property': {
      const meta = at?.offset === d.start && at.offset + at.length === d.end ? metaInContainer(at) : undefined;
      if (!meta) return { fixes: [] };
      const r = metaUpFix(text, meta);
      if ('reason' in r) return { fixes: [], reason: `\`_meta\` not moved: ${r.reason}` };
      const next =
        code === 'psconfig/spec-unknown-property'
          ? 'type'
          : code === 'psconfig/context-data-unknown-property'
            ? 'context'
            : 'archiver';
      return one({ code, title: `Move "_meta" up next to "${next}"`, edits: r.edits, preferred: true, notes: [] });
    }
    case 'psconfig/legacy-placeholder': {
      const variable = variableForPlaceholder(text.slice(d.start, d.end));
      if (!variable) return { fixes: [] };
      return one({
        code,
        title: `Replace ${text.slice(d.start, d.end)} with ${variable}`,
        edits: [{ start: d.start, end: d.end, newText: variable }],
        preferred: true,
        notes: [],
      });
    }
    case 'psconfig/archive-localhost': {
      const site = loopbackArchives(model).find((a) => a.value.offset === d.start);
      if (!site) return { fixes: [] };
      if (site.loopbackOnly)
        return {
          fixes: [],
          reason: `archive "${site.archive}": its user works only over loopback (RabbitMQ's guest): left on ${site.url?.host ?? 'localhost'}`,
        };
      const fixes: MigrationFix[] = [];
      for (const choice of localhost) {
        const value = loopbackReplacement(site, choice);
        if (value === undefined) continue;
        fixes.push({
          code,
          title:
            choice.kind === 'scheduled-by'
              ? `Archive to {% scheduled_by_address %} (the host that scheduled each task): ${value}`
              : `Archive to ${choice.host}: ${value}`,
          edits: [
            { start: site.value.offset, end: site.value.offset + site.value.length, newText: JSON.stringify(value) },
          ],
          preferred: fixes.length === 0,
          notes: [],
        });
      }
      return { fixes };
    }
  }
}

function one(fix: MigrationFix): FixOutcome {
  return { fixes: [fix] };
}

function isArchiverValue(n: JsonNode): boolean {
  const prop = n.parent;
  return prop?.type === 'property' && prop.children?.[1] === n && prop.children[0].value === 'archiver';
}

function archiveNameOf(n: JsonNode): string {
  const member = n.parent?.parent?.parent;
  return JSON.stringify(member?.type === 'property' ? member.children?.[0].value : '?');
}

/** The new value of a loopback field: the host replaced (bracketed when IPv6) in a URL, or the host itself; a
 *  pScheduler http archive posting to logstash directly (`:11283`, only reachable on its own host) or to
 *  `/logstash` becomes the standard `https://HOST/logstash` (toolkit#486's intended value). */
export function loopbackReplacement(site: LoopbackArchive, choice: LocalhostChoice): string | undefined {
  const host = choice.kind === 'scheduled-by' ? '{% scheduled_by_address %}' : choice.host;
  if (!site.url) return host;
  const urlHost = isIP(host) === 6 ? `[${host}]` : host;
  const u = site.url;
  if (site.archiver === 'http' && (u.port === ':11283' || /^\/logstash\/?$/.test(u.rest)))
    return `https://${u.userinfo}${urlHost}/logstash`;
  return `${u.scheme}${u.userinfo}${urlHost}${u.port}${u.rest}`;
}

/** Hosts of the template's other archives (URLs and `_meta.esmond_url`, loopback and variables excluded), the
 *  likely "central archive" choices for a loopback archive. */
export function archiveHostCandidates(model: TemplateModel, max = 3): string[] {
  const out: string[] = [];
  const add = (url: unknown): void => {
    if (typeof url !== 'string' || url.includes('{%')) return;
    const u = splitUrl(url);
    if (!u || !u.host || isLoopbackHost(u.host)) return;
    if (!out.includes(u.host) && out.length < max) out.push(u.host);
  };
  for (const prop of sectionNode(model.parsed.root, 'archives')?.children ?? []) {
    const archive = prop.children?.[1];
    if (prop.comment || archive?.type !== 'object') continue;
    const v = archive.tree.toValue(archive.index) as Record<string, unknown>;
    const data = (v.data ?? {}) as Record<string, unknown>;
    add(data._url);
    add(data.url);
    add(((v._meta ?? {}) as Record<string, unknown>).esmond_url);
    add(((data._meta ?? {}) as Record<string, unknown>).esmond_url);
  }
  return out;
}

export interface FixAllResult {
  edits: TextEditOffsets[];
  /** How many diagnostics the edits fix. */
  count: number;
  notes: string[];
}

/** Every diagnostic of `code` fixed at once (the preferred fix, or the localhost `choice`); a fix whose edits would
 *  overlap one already taken is left for a later pass. */
export function fixAll(
  model: TemplateModel,
  diagnostics: readonly FixRequest[],
  code: FixableCode,
  choice: LocalhostChoice = SCHEDULED_BY,
): FixAllResult {
  const out: FixAllResult = { edits: [], count: 0, notes: [] };
  for (const d of diagnostics) {
    if (d.code !== code) continue;
    const [fix] = migrationFixes(model, d, [choice]).fixes;
    if (!fix || !editsDisjoint(fix.edits, out.edits)) continue;
    out.edits.push(...fix.edits);
    out.notes.push(...fix.notes);
    out.count++;
  }
  return out;
}
