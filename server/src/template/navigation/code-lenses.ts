// Code lens data: a count line and a schedule line (runs a day, from the simulated schedule) on every task, and an
// "open in Archive Explorer" on archives whose data names an esmond or http archive URL. Counts come from the
// expansion the caller passes in.
import type { ExpandedCombination, OpenArchiveExplorerArgs, ScheduleTemplateTask } from '../../../../common/protocol';
import type { TemplateModel } from '../model';
import { members, propertyValue, stringValue } from '../parse';
import { sectionNode } from '../symbols';
import { tasksExpanding } from '../variable-table';
import { identicalNote, perDay, type ExpansionFacts } from './hover';
import { grafanaLensTitle, grafanaView } from '../grafana/agent-view';
import { pluralPlain } from '../../../../common/text';

export interface TaskLens {
  kind: 'task';
  task: string;
  start: number;
  end: number;
  /** Undefined until expansion figures are available. */
  title?: string;
}

export type { OpenArchiveExplorerArgs as ArchiveExplorerArgs } from '../../../../common/protocol';

export interface ArchiveLens {
  kind: 'archive';
  archive: string;
  start: number;
  end: number;
  title: string;
  args: OpenArchiveExplorerArgs;
}

/** A dashboard lens on every task: the grid of its configured pairs against the archive. */
export interface DashboardLens {
  kind: 'dashboard';
  task: string;
  start: number;
  end: number;
  title: string;
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

/**
 * The schedule lens of a task: its runs a day in the simulated schedule (summed over its pScheduler tasks), how many
 * fit. `error`: why there is no simulation.
 */
export function scheduleLensTitle(task: string, schedule: readonly ScheduleTemplateTask[], error?: string): string {
  if (error) return `schedule: ${error.length > 80 ? `${error.slice(0, 79)}…` : error}`;
  const t = schedule.find((s) => s.task === task);
  if (!t) return 'schedule: creates no pScheduler task';
  // A task without a repeat (a latencybg's usual form) runs once, when created: in the model's warm-up day, so
  // before the days it reports. Saying "no run" there would read as a task that never runs.
  if (t.wantedPerDay === 0 && t.once === t.combinations)
    return 'schedule: one run, when the task is created (no repeat)';
  // Renewed by pSConfig's agent, such a task runs once per task the agent posts: once a task lifetime (a day).
  if (t.once === t.combinations)
    return `schedule: no repeat, one run per task pSConfig posts: ${perDay(t.wantedPerDay)} a day${t.losing === 0 ? ', all fit' : `, ${perDay(t.scheduledPerDay)} fit`}`;
  if (t.wantedPerDay === 0) return 'schedule: no run in the simulated days';
  if (t.losing === 0) return `schedule: ${perDay(t.wantedPerDay)} runs a day, all fit`;
  return `schedule: ${perDay(t.scheduledPerDay)} of ${perDay(t.wantedPerDay)} runs a day fit (${t.losing} of ${pluralPlain(t.combinations, 'task')} lose runs)`;
}

export function taskLensTitle(task: string, facts: ExpansionFacts): string {
  const s = facts.tasks.find((t) => t.task === task);
  if (!s) return 'not expanded';
  if (s.error) return `cannot expand: ${s.error}`;
  const n = `${pluralPlain(s.count, 'task')} for ${pluralPlain(s.agents, 'agent')}${identicalNote(s)}`;
  return s.disabled ? `${n} (disabled)` : n;
}

/**
 * The archive URL an archive object's data names, if it is a plain http(s) URL: an esmond `url`; for `http`, the
 * esmond URL its `_meta.esmond_url` names for readers (perfSONAR 5, as psconfig's MaDDash checks read it), else `_url`.
 */
export function archiveUrl(archiver: string | undefined, data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const d = data as Record<string, unknown>;
  const meta =
    typeof d._meta === 'object' && d._meta !== null ? (d._meta as Record<string, unknown>).esmond_url : undefined;
  const candidate = archiver === 'esmond' ? d.url : archiver === 'http' ? (meta ?? d._url ?? d.url) : undefined;
  return typeof candidate === 'string' && /^https?:\/\//i.test(candidate) ? candidate : undefined;
}

/** The event type the explorer should show first for a test type (its dashboard metric). */
const EVENT_TYPE_OF_TEST: Record<string, string> = {
  throughput: 'throughput',
  'disk-to-disk': 'throughput',
  latency: 'histogram-owdelay',
  latencybg: 'histogram-owdelay',
  rtt: 'histogram-rtt',
  trace: 'packet-trace',
};

/** `raw` with every `{% … %}` as a wildcard: does an expanded URL come from it? */
function templateMatcher(raw: string): RegExp {
  const parts = raw.split(/\{%.*?%\}/);
  return new RegExp(`^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?')}$`);
}

/** The URL of this archive in a combination's task JSON, when the combination writes to it. */
function urlIn(c: ExpandedCombination, archiver: string | undefined, matches: RegExp): string | undefined {
  for (const a of c.pscheduler?.archives ?? []) {
    if (a.archiver !== archiver) continue;
    const u = archiveUrl(archiver, a.data);
    if (u && matches.test(u)) return u;
  }
  return undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * One lens per archive with a URL. With expansion facts (the first combination of each task) it opens the explorer
 * on the pair of the first task, in template order, whose combination really writes to this archive (an archive
 * attached through `hosts` reaches only the tasks those hosts schedule), with that task's metric, the spec's own
 * source and destination strings and the URL as the combination resolved it (or, for an http archive with a
 * top-level `_meta.esmond_url`, that URL).
 */
export function archiveLenses(model: TemplateModel, facts?: ExpansionFacts): ArchiveLens[] {
  const root = model.parsed.root;
  const out: ArchiveLens[] = [];
  for (const [name, prop] of members(sectionNode(root, 'archives'))) {
    const spec = prop.children?.[1];
    const archiver = stringValue(propertyValue(spec, 'archiver'));
    const dataNode = propertyValue(spec, 'data');
    const meta = stringValue(propertyValue(propertyValue(dataNode, '_meta'), 'esmond_url'));
    // What the task JSON's archive names (archiveUrl reads the same there): the combinations are matched on it.
    const written =
      archiver === 'esmond'
        ? stringValue(propertyValue(dataNode, 'url'))
        : archiver === 'http'
          ? (meta ?? stringValue(propertyValue(dataNode, '_url') ?? propertyValue(dataNode, 'url')))
          : undefined;
    // The reader's URL at the archive's top level (where pScheduler accepts `_meta`): pSConfig strips it from the
    // task JSON, so it is taken from the template as written.
    const read =
      archiver === 'http' ? stringValue(propertyValue(propertyValue(spec, '_meta'), 'esmond_url')) : undefined;
    const raw = read ?? written;
    if (raw === undefined || !/^https?:\/\//i.test(raw)) continue;
    if (read?.includes('{%')) continue; // not in the task JSON, so no combination resolves it
    const matches = written !== undefined ? templateMatcher(written) : undefined;
    let combo: ExpandedCombination | undefined;
    let url: string | undefined;
    for (const user of tasksExpanding(model, { section: 'archives', name })) {
      combo = facts?.combinations.find((c) => c.task === user.name && c.pscheduler !== undefined);
      url = combo && matches && urlIn(combo, archiver, matches);
      if (url) break;
      combo = undefined;
    }
    if (read) url = read;
    else if (!url) {
      if (raw.includes('{%')) continue;
      url = raw;
    }
    const args: OpenArchiveExplorerArgs = { url };
    let title = 'Open in Archive Explorer';
    if (combo?.pscheduler) {
      const s = combo.pscheduler.test.spec;
      const src = str(s.source);
      const dst = str(s.dest) ?? str(s.destination);
      args.task = combo.task;
      // The spec's strings are what the archiver records as input-source/-destination (exact, no DNS); without a
      // source it records the lead participant, which the agent is.
      if (src) args.inputSource = src;
      else if (combo.agent) args.source = combo.agent;
      if (dst) args.inputDestination = dst;
      const eventType = EVENT_TYPE_OF_TEST[combo.pscheduler.test.type];
      if (eventType) args.eventType = eventType;
      const from = src ?? combo.agent;
      title = `Open in Archive Explorer: ${combo.task}${from && dst ? ` ${from} → ${dst}` : ''}`;
    }
    const key = prop.children![0];
    out.push({
      kind: 'archive',
      archive: name,
      start: key.offset + 1,
      end: key.offset + key.length - 1,
      title,
      args,
    });
  }
  return out;
}

/** "Dashboard" on every task: its configured pairs as a grid against the archive's latest results. */
export function dashboardLenses(model: TemplateModel): DashboardLens[] {
  return model.index.definitions
    .filter((d) => d.kind === 'tasks')
    .map((d) => ({ kind: 'dashboard', task: d.name, start: d.start, end: d.end, title: 'Dashboard' }));
}

/** What perfSONAR 5's Grafana agent draws for a task: its grid and dashboards, an empty grid, or none and why. */
export interface GrafanaLens {
  kind: 'grafana';
  task: string;
  start: number;
  end: number;
  title: string;
}

export function grafanaLenses(model: TemplateModel): GrafanaLens[] {
  return grafanaView(model).map((v) => ({
    kind: 'grafana',
    task: v.task,
    start: v.start,
    end: v.end,
    title: grafanaLensTitle(v),
  }));
}
