// The hosts' real runs beside the simulated ones (issue 28): the last hosts read of the template (each agent's
// pScheduler, client/src/hosts via pscheduler-client/) and, when there is one, its comparison with the template
// (server/src/template/hosts: which template task each pScheduler task is), turned into the page's `real` arrays.
// Pure and bounded like timeline-data.ts: at most MAX_TIMELINE_REAL_RUNS runs, and what is left out is counted in a
// note.
//
// A run is drawn on the row of the host it was read from, in the colour of the template task whose host entry lists
// its task's href (a neutral colour for a task no entry names: extra, deleted, or no comparison). The simulated
// span starts at today 00:00 UTC while the runs read are the last `since` before the read, so when the span is a
// whole number of days each run is moved by whole spans onto it, `(t − start) mod length`: its time of day is kept
// (the axis shows it right), its date is not, and the hover gives the actual time. A span of another length is not
// folded: runs outside it are left out and counted.
import type { HostRead, HostsResult, HostTaskEntry, ObservedRun } from '../../../common/protocol';
import { REAL_FAILED, REAL_NONSTART, REAL_RUN, type TimelineData, type TimelineReal } from './messages';
import { plural } from '../../../common/text';

/** Real runs the page is sent at most (the reader itself keeps 5,000 runs per host). */
export const MAX_TIMELINE_REAL_RUNS = 100_000;

export const DAY_MS = 86_400_000;

/** The last hosts read of a template, as the Hosts view keeps it. */
export interface TimelineObserved {
  reads: HostRead[];
  result?: HostsResult;
}

/** How a pScheduler run state (run_state.sql) is drawn. */
export function realKind(state: string): number {
  if (state === 'nonstart') return REAL_NONSTART;
  if (state === 'failed' || state === 'missed') return REAL_FAILED;
  return REAL_RUN;
}

/** `add(text)` → its index in `list`, each text once. */
function indexer(list: string[]): (text: string) => number {
  const index = new Map<string, number>();
  return (text) => {
    let i = index.get(text);
    if (i === undefined) index.set(text, (i = list.push(text) - 1));
    return i;
  };
}

const isoOf = (ms: number): string => new Date(ms).toISOString();

function testTypeOf(json: unknown): string | undefined {
  const test = json && typeof json === 'object' ? (json as { test?: unknown }).test : undefined;
  const type = test && typeof test === 'object' ? (test as { type?: unknown }).type : undefined;
  return typeof type === 'string' && type ? type : undefined;
}

function disabled(json: unknown): boolean {
  const detail = json && typeof json === 'object' ? (json as { detail?: unknown }).detail : undefined;
  return !!detail && typeof detail === 'object' && (detail as { enabled?: unknown }).enabled === false;
}

/** What the hover calls the task of a run: the template task, else what the comparison or the task says it is. */
function labelOf(entry: HostTaskEntry | undefined, json: unknown, compared: boolean): string {
  if (entry?.task !== undefined)
    return entry.verdict === 'different' ? `task ${entry.task}, a different copy` : `task ${entry.task}`;
  const type = entry?.testType ?? testTypeOf(json);
  const what = type ? `${type} task` : 'task';
  if (disabled(json)) return `deleted ${what}`;
  if (entry?.verdict === 'extra') return `extra ${what}, not from this template`;
  return compared ? `${what} not compared with this template` : `${what}, not compared yet`;
}

export interface ObservedInput {
  maxRuns?: number;
}

/**
 * The real runs of `observed` as arrays for `data`'s page (its hosts, task names and span), with the notes the page
 * shows (the folding, what was left out, hosts that could not be read). `real` is undefined when nothing was read.
 */
export function realRunsOf(
  data: Pick<TimelineData, 'start' | 'end' | 'hosts' | 'taskNames'>,
  observed: TimelineObserved | undefined,
  input: ObservedInput = {},
): { real?: TimelineReal; notes: string[] } {
  const notes: string[] = [];
  const reads = Array.isArray(observed?.reads) ? observed.reads : [];
  if (!reads.length) return { notes };
  const maxRuns = input.maxRuns ?? MAX_TIMELINE_REAL_RUNS;
  const length = data.end - data.start;
  const whole = length >= DAY_MS && length % DAY_MS === 0;

  const hostIndex = new Map<string, number>();
  data.hosts.forEach((h, i) => {
    if (!hostIndex.has(h.address)) hostIndex.set(h.address, i);
  });
  const taskIndex = new Map<string, number>();
  data.taskNames.forEach((t, i) => {
    if (!taskIndex.has(t)) taskIndex.set(t, i);
  });
  // Entries by the href of each pScheduler task they are about: the read host's own first, any host's after (a
  // task of another agent is reported where it was found).
  const own = new Map<string, Map<string, HostTaskEntry>>();
  const any = new Map<string, HostTaskEntry>();
  const result = observed?.result;
  for (const hr of Array.isArray(result?.hosts) ? result.hosts : []) {
    const mine = own.get(hr.host) ?? new Map<string, HostTaskEntry>();
    own.set(hr.host, mine);
    for (const e of Array.isArray(hr.entries) ? hr.entries : [])
      for (const href of Array.isArray(e.hrefs) ? e.hrefs : []) {
        if (!mine.has(href)) mine.set(href, e);
        const seen = any.get(href);
        if (!seen || (seen.task === undefined && e.task !== undefined)) any.set(href, e);
      }
  }

  const real: TimelineReal = {
    host: [],
    task: [],
    label: [],
    start: [],
    end: [],
    kind: [],
    state: [],
    reason: [],
    at: [],
    labels: [],
    states: [],
    reasons: [],
    folded: false,
  };
  const labelOfIndex = indexer(real.labels);
  const stateOf = indexer(real.states);
  const reasonOf = indexer(real.reasons);
  const noRow = new Map<string, number>();
  let total = 0;
  let noStart = 0;
  let outside = 0;
  let runsUnread = 0;
  let runsCut = 0;
  let newest = NaN;
  const sinces = new Set<string>();

  for (const read of reads) {
    if (!read || typeof read.host !== 'string') continue;
    if (read.error !== undefined) {
      notes.push(`pScheduler on ${read.host} could not be read: ${read.error}`);
      continue;
    }
    if (typeof read.since === 'string') sinces.add(read.since);
    const readAt = Date.parse(read.readAt);
    if (!Number.isNaN(readAt) && !(readAt <= newest)) newest = readAt;
    const row = hostIndex.get(read.host);
    const mine = own.get(read.host);
    for (const task of Array.isArray(read.tasks) ? read.tasks : []) {
      if (task.runsError !== undefined) runsUnread++;
      if (task.runsTruncated) runsCut++;
      const runs: ObservedRun[] = Array.isArray(task.runs) ? task.runs : [];
      if (!runs.length) continue;
      const entry = mine?.get(task.href) ?? any.get(task.href);
      let label = -1;
      const t = entry?.task !== undefined ? (taskIndex.get(entry.task) ?? -1) : -1;
      for (const run of runs) {
        const s = typeof run?.start === 'string' ? Date.parse(run.start) : NaN;
        if (Number.isNaN(s)) {
          noStart++;
          continue;
        }
        if (row === undefined) {
          noRow.set(read.host, (noRow.get(read.host) ?? 0) + 1);
          continue;
        }
        const offset = s - data.start;
        let at = offset;
        if (whole) at = ((offset % length) + length) % length;
        else if (offset < 0 || offset >= length) {
          outside++;
          continue;
        }
        if (++total > maxRuns) continue;
        const e = typeof run.end === 'string' ? Date.parse(run.end) : NaN;
        const seconds = e >= s ? (e - s) / 1000 : 0;
        if (at !== offset) real.folded = true;
        if (label < 0) label = labelOfIndex(labelOf(entry, task.json, result !== undefined));
        const state = typeof run.state === 'string' && run.state ? run.state : 'unknown';
        real.host.push(row);
        real.task.push(t);
        real.label.push(label);
        real.start.push(at / 1000);
        real.end.push(at / 1000 + seconds);
        real.kind.push(realKind(state));
        real.state.push(stateOf(state));
        real.reason.push(typeof run.reason === 'string' && run.reason ? reasonOf(run.reason) : -1);
        real.at.push(isoOf(s));
      }
    }
  }
  if (sinces.size) real.since = [...sinces].join(', ');
  if (Number.isFinite(newest)) real.readAt = isoOf(newest);

  const days = length / DAY_MS;
  if (real.folded)
    notes.push(
      `Real runs (↳ pScheduler rows: the last ${real.since ?? 'span'} read${real.readAt ? ` at ${real.readAt}` : ''}) are placed by their time of day on the simulated ${plural(days, 'day')}: each moved by whole ${days === 1 ? 'days' : `spans of ${days} days`}; the hover gives its actual time.`,
    );
  if (total > maxRuns)
    notes.push(
      `The timeline shows the first ${maxRuns.toLocaleString('en')} of ${total.toLocaleString('en')} runs read from pScheduler.`,
    );
  if (noRow.size) {
    const list = [...noRow].map(([h, n]) => `${h} (${plural(n, 'run')})`);
    notes.push(
      `${plural(noRow.size, 'host')} read that the simulation has no row for, left out: ${list.slice(0, 10).join(', ')}${list.length > 10 ? `, … and ${list.length - 10} more` : ''}.`,
    );
  }
  if (outside)
    notes.push(
      `${plural(outside, 'run')} read from pScheduler fall outside the simulated span, which is not a whole number of days (so not folded onto it): left out.`,
    );
  if (noStart) notes.push(`${plural(noStart, 'run')} read from pScheduler without a start time: left out.`);
  if (runsUnread) notes.push(`The runs of ${plural(runsUnread, 'task')} could not be read from pScheduler.`);
  if (runsCut) notes.push(`${plural(runsCut, 'task')} had more runs in the span than the reader keeps.`);
  return { real, notes };
}
