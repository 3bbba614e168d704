// A schedule report (the `runs`/`hosts`/`tasks` JSON `psconfig-tools schedule --format json --runs` prints, or the
// language server's answer) turned into what the timeline page draws: parallel arrays of runs, one entry per
// combination, hosts by index. Pure and bounded: the page never receives more than MAX_TIMELINE_RUNS runs or
// MAX_TIMELINE_HOSTS hosts, and a run it cannot read (unknown class, unreadable time) is left out and counted in a
// note rather than dropped silently.
import type { ScheduleReport, ScheduleRunRow, SchedulingClassName } from '../../../common/protocol';
import {
  CLASS_CODES,
  RUN_NONSTART,
  RUN_SCHEDULED,
  type TimelineData,
  type TimelineFocus,
  type TimelineHost,
} from './messages';
import { pluralPlain } from '../../../common/text';

/** Runs the page is sent at most (about 10 MB of arrays); the report's totals stay whole. */
export const MAX_TIMELINE_RUNS = 300_000;
/** Host rows the page is sent at most. */
export const MAX_TIMELINE_HOSTS = 5_000;

export interface TimelineInput {
  report: ScheduleReport;
  title: string;
  /** The simulated span (ISO 8601); default: from the first run's start to the last run's end. */
  span?: { start: string; end: string };
  focus?: TimelineFocus;
  maxRuns?: number;
  maxHosts?: number;
}

/** Milliseconds of an ISO 8601 UTC time as the CLI prints them (`2026-12-01T00:00:19.000Z`, with or without the
 *  fraction), read from its characters; anything else goes to Date.parse. A day's runs share their date, so the
 *  date's milliseconds are kept from the last call. */
let lastDay = '';
let lastDayMs = 0;
export function isoMs(s: unknown): number {
  if (typeof s !== 'string') return NaN;
  const n = s.length;
  if (
    (n === 20 || n === 24) &&
    s.charCodeAt(10) === 84 /* T */ &&
    s.charCodeAt(n - 1) === 90 /* Z */ &&
    s.charCodeAt(13) === 58 &&
    s.charCodeAt(16) === 58
  ) {
    const d = (i: number): number => {
      const v = s.charCodeAt(i) - 48;
      return v >= 0 && v <= 9 ? v : NaN;
    };
    const two = (i: number): number => d(i) * 10 + d(i + 1);
    const hh = two(11);
    const mm = two(14);
    const ss = two(17);
    const ms = n === 24 && s.charCodeAt(19) === 46 ? d(20) * 100 + d(21) * 10 + d(22) : n === 20 ? 0 : NaN;
    if (hh >= 0 && hh < 24 && mm >= 0 && mm < 60 && ss >= 0 && ss < 60 && ms >= 0 && ms < 1000) {
      const day = s.slice(0, 10);
      if (day !== lastDay) {
        const ms0 = Date.parse(`${day}T00:00:00Z`);
        if (Number.isNaN(ms0)) return Date.parse(s);
        lastDay = day;
        lastDayMs = ms0;
      }
      return lastDayMs + ((hh * 60 + mm) * 60 + ss) * 1000 + ms;
    }
  }
  return Date.parse(s);
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

function classCode(c: unknown): number {
  return CLASS_CODES.indexOf(c as SchedulingClassName);
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function sameStrings(a: string[] | undefined, b: string[]): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function finite(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A report as the page's arrays. Throws only when `report` is not a report at all. */
export function timelineOf(input: TimelineInput): TimelineData {
  const { report } = input;
  if (!report || typeof report !== 'object' || !Array.isArray(report.hosts) || !Array.isArray(report.tasks))
    throw new Error('not a schedule report: it needs "hosts" and "tasks" arrays');
  const maxRuns = input.maxRuns ?? MAX_TIMELINE_RUNS;
  const maxHosts = input.maxHosts ?? MAX_TIMELINE_HOSTS;
  const notes: string[] = [];

  // Hosts: the report's, in its order, then any participant it did not list.
  const hosts: TimelineHost[] = [];
  const hostIndex = new Map<string, number>();
  let hostsLeftOut = 0;
  const hostOf = (address: string): number => {
    let i = hostIndex.get(address);
    if (i !== undefined) return i;
    if (hosts.length >= maxHosts) {
      hostsLeftOut++;
      return -1;
    }
    i = hosts.length;
    hostIndex.set(address, i);
    hosts.push({ address, exclusiveLoad: 0, normalLoad: 0, tasks: 0 });
    return i;
  };
  for (const h of report.hosts) {
    if (!h || typeof h.address !== 'string') continue;
    const i = hostOf(h.address);
    if (i < 0) continue;
    hosts[i] = {
      address: h.address,
      exclusiveLoad: finite(h.exclusiveLoad) ?? 0,
      normalLoad: finite(h.normalLoad) ?? 0,
      tasks: finite(h.tasks) ?? 0,
    };
  }

  // Strings (task names, addresses, agents, tools) as indexes into tables, each string once.
  const taskNames: string[] = [];
  const taskOf = indexer(taskNames);
  const names: string[] = [];
  const nameOf = indexer(names);
  const reasons: string[] = [];
  const reasonOf = indexer(reasons);

  // Combinations: keyed by task and addresses (and, should its runs disagree, their participants), so nothing a
  // run says is lost.
  const combos = {
    comboTask: [] as number[],
    comboClass: [] as number[],
    comboAddresses: [] as number[][],
    comboAgent: [] as number[],
    comboTool: [] as number[],
    comboParticipants: [] as number[][],
    comboDuration: [] as number[],
    comboWanted: [] as number[],
    comboScheduled: [] as number[],
    comboNonstart: [] as number[],
  };
  const addCombo = (task: string, addresses: string[], cls: number, copyOf = -1): number => {
    const c = combos.comboTask.length;
    const from = (list: number[], dflt: number): number => (copyOf >= 0 ? list[copyOf] : dflt);
    combos.comboTask.push(taskOf(task));
    combos.comboClass.push(cls);
    combos.comboAddresses.push(addresses.map(nameOf));
    combos.comboAgent.push(from(combos.comboAgent, -1));
    combos.comboTool.push(from(combos.comboTool, -1));
    combos.comboParticipants.push([]);
    combos.comboDuration.push(from(combos.comboDuration, -1));
    combos.comboWanted.push(from(combos.comboWanted, -1));
    combos.comboScheduled.push(from(combos.comboScheduled, -1));
    combos.comboNonstart.push(from(combos.comboNonstart, -1));
    return c;
  };
  const byKey = new Map<string, number>();
  // Task names and addresses are strings without a NUL in any template pSConfig reads (JSON allows one; a key
  // that then collided would only merge two combinations' rows, never lose a run).
  const comboKey = (task: string, addresses: string[]): string => `${task}\u0000${addresses.join('\u0000')}`;
  for (const t of report.tasks) {
    if (!t || typeof t.task !== 'string' || !isStringArray(t.addresses)) continue;
    const key = comboKey(t.task, t.addresses);
    if (byKey.has(key)) continue;
    const c = addCombo(t.task, t.addresses, Math.max(0, classCode(t.class)));
    byKey.set(key, c);
    const count = (v: unknown): number => finite(v) ?? -1;
    combos.comboAgent[c] = typeof t.agent === 'string' ? nameOf(t.agent) : -1;
    combos.comboTool[c] = typeof t.tool === 'string' ? nameOf(t.tool) : -1;
    combos.comboDuration[c] = count(t.durationSeconds);
    combos.comboWanted[c] = count(t.wanted);
    combos.comboScheduled[c] = count(t.scheduled);
    combos.comboNonstart[c] = count(t.nonstart);
  }

  const runs = Array.isArray(report.runs) ? report.runs : [];
  const count = Math.min(runs.length, maxRuns);
  const starts = new Float64Array(count);
  const ends = new Float64Array(count);
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < count; i++) {
    const r = runs[i] as ScheduleRunRow | undefined;
    const start = r ? isoMs(r.start) : NaN;
    const end = r ? isoMs(r.end) : NaN;
    if (!r || !(end >= start) || classCode(r.class) < 0) {
      starts[i] = NaN;
      continue;
    }
    starts[i] = start;
    ends[i] = end;
    if (start < first) first = start;
    if (end > last) last = end;
  }
  const spanStart = input.span ? Date.parse(input.span.start) : NaN;
  const spanEnd = input.span ? Date.parse(input.span.end) : NaN;
  const start = Number.isFinite(spanStart) ? spanStart : Number.isFinite(first) ? first : Date.now();
  let end = Number.isFinite(spanEnd) ? spanEnd : Number.isFinite(last) ? last : start + 86_400_000;
  if (end <= start) end = start + 1000;

  const runCombination: number[] = [];
  const runStart: number[] = [];
  const runEnd: number[] = [];
  const runState: number[] = [];
  const runReason: number[] = [];
  /** Per combination: the participants (as the runs name them) that set its hosts. */
  const placedBy: (string[] | undefined)[] = [];
  let unreadable = 0;
  for (let i = 0; i < count; i++) {
    const r = runs[i];
    if (
      Number.isNaN(starts[i]) ||
      typeof r.task !== 'string' ||
      !isStringArray(r.addresses) ||
      !isStringArray(r.participants)
    ) {
      unreadable++;
      continue;
    }
    const base = comboKey(r.task, r.addresses);
    let c = byKey.get(base);
    // Runs of one task name the same participants: compared as strings, mapped to hosts only when new.
    if (c === undefined || !sameStrings(placedBy[c], r.participants)) {
      const participants = r.participants.map(hostOf).filter((h) => h >= 0);
      if (c === undefined) {
        c = addCombo(r.task, r.addresses, classCode(r.class));
        byKey.set(base, c);
      } else if (placedBy[c]) {
        // A run of the same task on other hosts than its siblings (the model never makes one; kept, not merged).
        const key = `${base}\u0000${r.participants.join('\u0000')}`;
        const other = byKey.get(key);
        if (other !== undefined) c = other;
        else byKey.set(key, (c = addCombo(r.task, r.addresses, combos.comboClass[c], c)));
      }
      if (!placedBy[c]) {
        placedBy[c] = r.participants;
        combos.comboParticipants[c] = participants;
      }
    }
    runCombination.push(c);
    runStart.push((starts[i] - start) / 1000);
    runEnd.push((ends[i] - start) / 1000);
    runState.push(r.state === 'nonstart' ? RUN_NONSTART : RUN_SCHEDULED);
    runReason.push(typeof r.reason === 'string' && r.reason ? reasonOf(r.reason) : -1);
  }

  if (runs.length > maxRuns)
    notes.push(
      `The timeline shows the first ${maxRuns.toLocaleString('en')} of ${runs.length.toLocaleString('en')} runs; the CLI (psconfig-tools schedule --runs) lists all.`,
    );
  if (hostsLeftOut)
    notes.push(
      `${pluralPlain(hostsLeftOut, 'host reference')} beyond the first ${maxHosts} hosts left out of the rows.`,
    );
  if (unreadable) notes.push(`${pluralPlain(unreadable, 'run')} left out: no readable task, class or times.`);
  if (!runs.length && report.tasks.length) notes.push('The report lists no runs (the CLI prints them with --runs).');

  return {
    title: input.title,
    start,
    end,
    taskNames,
    names,
    hosts,
    ...combos,
    runCombination,
    runStart,
    runEnd,
    runState,
    runReason,
    reasons,
    focus: input.focus,
    notes,
  };
}
