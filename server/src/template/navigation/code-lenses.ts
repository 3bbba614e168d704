// Code lens data: a count line on every task, and an "open in Archive Explorer" on archives whose data names
// an esmond or http archive URL. Counts come from the expansion the caller passes in.
import type { TemplateModel } from '../model';
import { members, propertyValue, stringValue } from '../parse';
import { sectionNode } from '../symbols';
import { tasksExpanding } from '../variable-table';
import { plural, type ExpansionFacts } from './hover';

export interface TaskLens {
  kind: 'task';
  task: string;
  start: number;
  end: number;
  /** Undefined until expansion figures are available. */
  title?: string;
}

export interface ArchiveExplorerArgs {
  url: string;
  source?: string;
  destination?: string;
}

export interface ArchiveLens {
  kind: 'archive';
  archive: string;
  start: number;
  end: number;
  title: string;
  args: ArchiveExplorerArgs;
}

export function taskLenses(model: TemplateModel, facts?: ExpansionFacts): TaskLens[] {
  const out: TaskLens[] = [];
  for (const d of model.index.definitions) {
    if (d.kind !== 'tasks') continue;
    out.push({
      kind: 'task',
      task: d.name,
      start: d.start,
      end: d.end,
      title: facts ? taskLensTitle(d.name, facts) : undefined,
    });
  }
  return out;
}

export function taskLensTitle(task: string, facts: ExpansionFacts): string {
  const s = facts.tasks.find((t) => t.task === task);
  if (!s) return 'not expanded';
  if (s.error) return `cannot expand: ${s.error}`;
  const n = `${plural(s.count, 'task')} for ${plural(s.agents, 'agent')}`;
  return s.disabled ? `${n} (disabled)` : n;
}

/** The archive URL an archive object's data names (esmond `url`, http `_url`/`url`), if it is a plain http(s) URL. */
export function archiveUrl(archiver: string | undefined, data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const d = data as Record<string, unknown>;
  const candidate = archiver === 'esmond' ? d.url : archiver === 'http' ? (d._url ?? d.url) : undefined;
  return typeof candidate === 'string' && /^https?:\/\//i.test(candidate) ? candidate : undefined;
}

export function archiveLenses(model: TemplateModel, facts?: ExpansionFacts): ArchiveLens[] {
  const root = model.parsed.root;
  const out: ArchiveLens[] = [];
  for (const [name, prop] of members(sectionNode(root, 'archives'))) {
    const spec = prop.children?.[1];
    const archiver = stringValue(propertyValue(spec, 'archiver'));
    const dataNode = propertyValue(spec, 'data');
    const raw =
      archiver === 'esmond'
        ? propertyValue(dataNode, 'url')
        : archiver === 'http'
          ? (propertyValue(dataNode, '_url') ?? propertyValue(dataNode, 'url'))
          : undefined;
    const rawUrl = stringValue(raw);
    if (rawUrl === undefined || !/^https?:\/\//i.test(rawUrl)) continue;
    const users = new Set(tasksExpanding(model, { section: 'archives', name }).map((t) => t.name));
    const combo = facts?.combinations.find((c) => !c.error && users.has(c.task));
    let url = rawUrl;
    if (url.includes('{%')) {
      if (!combo) continue;
      url = url
        .replace(/\{%\s+scheduled_by_address\s+%\}/g, combo.agent ?? '')
        .replace(/\{%\s+address\[(\d+)\]\s+%\}/g, (_m, i: string) => combo.addressValues[Number(i)] ?? '')
        .replace(/\{%\s+localhost\s+%\}/g, combo.flip ? (combo.agent ?? 'localhost') : 'localhost');
      if (url.includes('{%')) continue;
    }
    const args: ArchiveExplorerArgs = { url };
    if (combo?.addressValues[0] !== undefined) args.source = combo.addressValues[0];
    if (combo?.addressValues[1] !== undefined) args.destination = combo.addressValues[1];
    const key = prop.children![0];
    out.push({
      kind: 'archive',
      archive: name,
      start: key.offset + 1,
      end: key.offset + key.length - 1,
      title: 'Open in Archive Explorer',
      args,
    });
  }
  return out;
}
