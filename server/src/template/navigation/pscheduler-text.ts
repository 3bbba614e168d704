// What completion documentation and hovers say about a pScheduler plug-in and about a field of its spec / data:
// our description, what the field takes (type, unit, allowed values), the versions declaring it and whether the
// version the value is read with allows it; for a plug-in its versions, bundle and the tools that run it. Text
// from the template (a key, a name) goes through markdown.ts; the rest is our data.
import { acceptedVersions, toolsFor, versionNumbers, type PluginData } from '../pscheduler/catalog';
import { hasVersions, versionSpan, type FieldChoice, type SelectedVersion } from '../pscheduler/fields';
import { code } from './markdown';
import { payloadWord } from './pscheduler-position';

/** How the value's version was chosen, in words: "schema 3", "schema 1 (the default)". */
export function selectedWords(p: PluginData, s: SelectedVersion): string {
  switch (s.how) {
    case 'default':
      return 'schema 1, the default: no `schema`';
    case 'set':
      return `schema ${s.version}`;
    case 'variable':
      return 'a `schema` set by a template variable, read here as schema 1';
    case 'invalid':
      return `a \`schema\` pScheduler does not accept for ${p.name} (it takes ${versionSpan(acceptedVersions(p))}), read here as schema 1`;
  }
}

/** Markdown lines about a field: description, what it takes, required, versions, the selected version's verdict. */
export function fieldLines(p: PluginData, f: FieldChoice, selected: SelectedVersion, nested: boolean): string[] {
  const lines: string[] = [];
  if (f.doc) lines.push(f.doc);
  if (f.key === 'schema' && !nested) {
    // each version's schema pins its own number: say which numbers pScheduler takes instead
    lines.push(
      `Takes an integer naming a ${p.name} schema version: ${versionSpan(acceptedVersions(p))} (1 when absent).`,
    );
    lines.push(`This ${payloadWord(p)}: ${selectedWords(p, selected)}.`);
    return lines;
  }
  lines.push(`Takes ${f.takes}.`);
  if (f.required) lines.push(`Required${hasVersions(p) ? ` in schema ${selected.version}` : ''}.`);
  if (hasVersions(p) && f.versions.length) {
    const all = versionNumbers(p);
    const since = f.versions[0];
    lines.push(
      f.versions.length === all.length
        ? `In every ${p.name} schema (${versionSpan(all)}).`
        : since > 1
          ? `Introduced in ${p.name} schema ${since} (declared by schema ${versionSpan(f.versions)}).`
          : `Declared by ${p.name} schema ${versionSpan(f.versions)} only.`,
    );
  }
  const where = `this ${nested ? 'object' : payloadWord(p)} (${selectedWords(p, selected)})`;
  if (f.inSelected) lines.push(`Allowed in ${where}.`);
  else if (f.needsVersion !== undefined)
    lines.push(`**Not allowed** in ${where}: needs \`"schema": ${f.needsVersion}\` or later.`);
  else lines.push(`**Not allowed** in ${where}: only in schema ${versionSpan(f.versions)}.`);
  return lines;
}

/** "core bundle · schema 1–7" */
export function pluginDetail(p: PluginData): string {
  return `pScheduler ${p.kind === 'test' ? 'test' : p.kind} · ${p.bundle} bundle · schema ${versionSpan(acceptedVersions(p))}`;
}

/** Markdown lines about a plug-in: kind, versions, bundle, tools (tests), where upstream it lives. */
export function pluginLines(p: PluginData, selected?: SelectedVersion): string[] {
  const what = p.kind === 'test' ? 'test type' : p.kind === 'archiver' ? 'archiver' : 'context';
  const lines = [`**${p.name}**: pScheduler ${what}, ${bundleWords(p.bundle)}.`];
  const versions = acceptedVersions(p);
  const stored = versionNumbers(p);
  lines.push(
    versions.length > 1
      ? `\`schema\` ${versionSpan(versions)}${stored.length === 1 ? ' (one schema for every version)' : ''}; 1 when absent.`
      : '`schema` 1 only (1 when absent).',
  );
  if (selected) lines.push(`This ${p.kind === 'test' ? 'spec' : 'data'}: ${selectedWords(p, selected)}.`);
  if (p.kind === 'test') {
    const tools = toolsFor(p.name);
    lines.push(
      tools.length
        ? `Run by ${tools
            .sort((a, b) => b.preference - a.preference)
            .map((t) => `${code(t.name)}${toolNote(t.bundle, t.maxSchema)}`)
            .join(', ')}.`
        : 'No tool runs it.',
    );
  }
  for (const n of p.notes ?? []) lines.push(n);
  lines.push(`Upstream: perfsonar/pscheduler ${p.upstream.map((u) => code(u)).join(', ')}.`);
  return lines;
}

function toolNote(bundle: string, maxSchema: number | null): string {
  const parts: string[] = [];
  if (maxSchema !== null) parts.push(`spec schema ≤ ${maxSchema}`);
  if (bundle !== 'core') parts.push(`${bundle} bundle`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

function bundleWords(bundle: string): string {
  switch (bundle) {
    case 'core':
      return 'installed with pScheduler (core bundle)';
    case 'extras':
      return 'in the extras bundle (not installed by default)';
    case 'snmp':
      return 'in the snmp bundle';
    case 'obsolete':
      return 'obsolete (no longer built)';
    case 'conditional':
      return 'built only where its tool is available';
    default:
      return `bundle ${bundle}`;
  }
}
