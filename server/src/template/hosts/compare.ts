// What each host really runs, against what the template makes for it (pure: no network, no clock of its own).
//
// Identity. A template task is the task diff's: its agent, the template's task name and its addresses in order
// (task-diff/diff.ts). A pScheduler task carries neither the task name nor the combination, only its JSON, so:
// - present: a task on the host with the JSON pSConfig's agent would post, compared as the agent compares
//   (task.py `Task.checksum`: schema, test.spec.schema, tool, href, schedule.start/until and detail left out,
//   private `_` values of the spec and of archive data blanked, keys sorted) and without `reference.psconfig`
//   (the agent's own created-by block: its uuid is not the template's). pScheduler answers every `_` value as null
//   (api-server response.py `ok_json`: json_decomment(prefix="_", null=True)), which the blanking makes equal;
// - different: no such task, but one pSConfig created of the same test type whose spec has the combination's
//   addresses in the same members (source, dest, ...): the agent will delete it and post the new JSON; the parts
//   are the task diff's (task-diff/parts.ts), `old` on the host and `new` in the template;
// - missing: neither; extra: a task pSConfig's agent created that no combination of this template explains.
// A disabled task (pScheduler keeps a deleted task, `detail.enabled` false: tasks.py DELETE → api_task_disable)
// is left out. The template's tasks of other agents are looked for too: the agent posts to the lead's pScheduler,
// so a task found on this host for another agent is present for that agent, not extra.
import {
  isCreated,
  type ExpandedCombination,
  type HostRead,
  type HostReport,
  type HostRunSummary,
  type HostTaskEntry,
  type HostsResult,
  type ObservedTask,
  type PSchedulerTask,
} from '../../../../common/protocol';
import { taskParts } from '../task-diff/parts';
import { isObject } from '../../../../common/json';

type Obj = Record<string, unknown>;

/** The task JSON as pSConfig's checksum sees it, without the agent's created-by block. */
export function comparableTask(task: unknown): Obj {
  const d: Obj = isObject(task) ? (JSON.parse(JSON.stringify(task)) as Obj) : {};
  delete d.schema;
  delete d.tool;
  delete d.href;
  delete d.detail;
  delete d.participants;
  if (!Array.isArray(d.archives)) d.archives = [];
  const schedule: Obj = isObject(d.schedule) ? d.schedule : {};
  delete schedule.start;
  delete schedule.until;
  d.schedule = schedule;
  if (isObject(d.test) && isObject(d.test.spec)) {
    const spec = d.test.spec;
    delete spec.schema;
    for (const k of Object.keys(spec)) if (k.startsWith('_')) spec[k] = '';
  }
  for (const a of d.archives as unknown[])
    if (isObject(a) && isObject(a.data)) for (const k of Object.keys(a.data)) if (k.startsWith('_')) a.data[k] = '';
  if (isObject(d.reference)) {
    delete d.reference.psconfig;
    if (!Object.keys(d.reference).length) delete d.reference;
  }
  return d;
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

export const checksumKey = (task: unknown): string => canonical(comparableTask(task));

const testType = (t: unknown): string | undefined =>
  isObject(t) && isObject(t.test) && typeof t.test.type === 'string' ? t.test.type : undefined;

/** The spec members holding one of the combination's addresses: what the host's task must share to be "the same". */
function addressMembers(c: ExpandedCombination): [string, unknown][] {
  const spec = isObject(c.pscheduler) && isObject(c.pscheduler.test) ? (c.pscheduler.test as Obj).spec : undefined;
  if (!isObject(spec)) return [];
  const values = new Set(c.addressValues);
  return Object.entries(spec).filter(([, v]) => typeof v === 'string' && values.has(v));
}

function sameIdentity(c: ExpandedCombination, host: ObservedTask): boolean {
  if (testType(c.pscheduler) !== testType(host.json)) return false;
  const spec = isObject(host.json.test) ? (host.json.test as Obj).spec : undefined;
  if (!isObject(spec)) return false;
  const members = addressMembers(c);
  return members.length > 0 && members.every(([k, v]) => spec[k] === v);
}

const detailOf = (t: ObservedTask): Obj => (isObject(t.json.detail) ? t.json.detail : {});
const isEnabled = (t: ObservedTask): boolean => detailOf(t).enabled !== false;
const untilOf = (t: ObservedTask): string | undefined => {
  const s = t.json.schedule;
  return isObject(s) && typeof s.until === 'string' ? s.until : undefined;
};
const startOf = (t: ObservedTask): string => {
  const s = t.json.schedule;
  const d = detailOf(t);
  if (isObject(s) && typeof s.start === 'string') return s.start;
  return typeof d.start === 'string' ? d.start : typeof d.added === 'string' ? d.added : '';
};
const ms = (iso: string | undefined): number => (iso ? Date.parse(iso) : NaN);

/** Runs of some tasks summed (the tasks of one entry: a task and its renewal). */
export function summariseRuns(tasks: ObservedTask[]): HostRunSummary {
  const s: HostRunSummary = {
    finished: 0,
    failed: 0,
    missed: 0,
    nonStarters: 0,
    other: 0,
    archivingsSucceeded: 0,
    archivingsFailed: 0,
    archivingsPending: 0,
    problems: [],
  };
  const problem = (p: HostRunSummary['problems'][number]): void => {
    if (s.problems.length < 20) s.problems.push(p);
    else s.truncated = true;
  };
  for (const t of tasks) {
    if (t.runsTruncated) s.truncated = true;
    for (const r of t.runs) {
      const base = { run: r.href, ...(r.start ? { start: r.start } : {}) };
      if (r.state === 'finished') s.finished++;
      else if (r.state === 'failed') {
        s.failed++;
        problem({ kind: 'failed', ...base, ...(r.reason ? { reason: r.reason } : {}) });
      } else if (r.state === 'missed') {
        s.missed++;
        problem({ kind: 'missed', ...base, ...(r.reason ? { reason: r.reason } : {}) });
      } else if (r.state === 'nonstart') {
        s.nonStarters++;
        problem({ kind: 'nonstart', ...base, ...(r.reason ? { reason: r.reason } : {}) });
      } else s.other++;
      for (const a of r.archivings) {
        if (a.outcome === 'succeeded') s.archivingsSucceeded++;
        else if (a.outcome === 'pending') s.archivingsPending++;
        else {
          s.archivingsFailed++;
          problem({
            kind: 'archiving-failed',
            ...base,
            archiver: a.archiver,
            ...(a.message ? { reason: a.message } : {}),
          });
        }
      }
    }
  }
  return s;
}

/** What usually makes an agent create nothing, with what the template expects. */
export function missingHints(c: ExpandedCombination, host: string): string[] {
  const addrs = c.addressValues.join(' → ') || '(no addresses)';
  return [
    `the template expects ${c.task} ${addrs} (test ${testType(c.pscheduler) ?? '?'}) from the agent at ${c.agent ?? host}`,
    `match addresses: the agent on ${host} schedules only the tasks whose scheduling address is one of its own ` +
      `(its interfaces or match-addresses in psconfig-pscheduler-agent.json); check that ${c.agent ?? host} is one`,
    `DNS: a name must resolve on the agent's host to the address the template gives it, and each participant's pScheduler must answer`,
    `scheduled-by: which address of the combination schedules (by default the first; a no-agent address passes it to the other)`,
    `the agent reads the template on its check interval (PT1H by default): a template just published may not be read yet; its log (/var/log/perfsonar/psconfig-pscheduler-agent.log) names the combinations it skipped and why`,
  ];
}

function lifetimeOf(group: ObservedTask[], readAt: string): Pick<HostTaskEntry, 'lifetime' | 'until'> {
  const now = ms(readAt);
  const live = group.filter((t) => {
    const u = ms(untilOf(t));
    return Number.isNaN(u) || u > now;
  });
  const newest = [...group].sort((a, b) => startOf(b).localeCompare(startOf(a)))[0];
  const until = untilOf(newest);
  const out: Pick<HostTaskEntry, 'lifetime' | 'until'> = {
    lifetime: live.length === 0 ? 'expired' : live.length > 1 ? 'renewing' : 'current',
  };
  if (until) out.until = until;
  return out;
}

export interface CompareHostsInput {
  /** The template's expansion (all agents). */
  combinations: ExpandedCombination[];
  /** The template's agents (schedulers), to mark hosts that are not among them. */
  agents: string[];
  reads: HostRead[];
  template?: string;
  since: string;
}

/** Per host read: each template task present, missing or different, each other pSConfig task extra; runs summed. */
export function compareHosts(input: CompareHostsInput): HostsResult {
  const created = input.combinations.filter(isCreated);
  // Every read host's enabled tasks by checksum key, so a task of another agent can be found where it was posted.
  const where = new Map<string, { host: string; task: ObservedTask }[]>();
  for (const r of input.reads)
    for (const t of r.tasks) {
      if (!isEnabled(t)) continue;
      const k = checksumKey(t.json);
      const l = where.get(k);
      if (l) l.push({ host: r.host, task: t });
      else where.set(k, [{ host: r.host, task: t }]);
    }
  const expectedKeys = new Map<string, ExpandedCombination>();
  for (const c of created) {
    const k = checksumKey(c.pscheduler);
    if (!expectedKeys.has(k)) expectedKeys.set(k, c);
  }
  const hosts = input.reads.map((r) => compareHost(r, created, expectedKeys, where, input.agents));
  const problems = hosts.some(
    (h) =>
      h.error !== undefined ||
      h.counts.missing > 0 ||
      h.counts.different > 0 ||
      h.counts.expired > 0 ||
      h.entries.some((e) => e.runs && (e.runs.failed > 0 || e.runs.archivingsFailed > 0)),
  );
  const result: HostsResult = { since: input.since, hosts, problems };
  if (input.template !== undefined) result.template = input.template;
  return result;
}

function compareHost(
  read: HostRead,
  created: ExpandedCombination[],
  expectedKeys: Map<string, ExpandedCombination>,
  where: Map<string, { host: string; task: ObservedTask }[]>,
  agents: string[],
): HostReport {
  const report: HostReport = {
    host: read.host,
    url: read.url,
    entries: [],
    counts: { present: 0, missing: 0, extra: 0, different: 0, expired: 0, renewing: 0 },
  };
  if (!agents.includes(read.host)) report.notAnAgent = true;
  if (read.tasksTruncated) report.tasksTruncated = true;
  if (read.error !== undefined) {
    report.error = read.error;
    if (read.errorKind) report.errorKind = read.errorKind;
    return report;
  }
  const enabled = read.tasks.filter(isEnabled);
  const byKey = new Map<string, ObservedTask[]>();
  for (const t of enabled) {
    const k = checksumKey(t.json);
    const l = byKey.get(k);
    if (l) l.push(t);
    else byKey.set(k, [t]);
  }
  const used = new Set<ObservedTask>();
  // Entries in the template's order (its combinations'), the extra ones after them in pScheduler's order.
  const rank = new Map<HostTaskEntry, number>();
  const orderOf = new Map<ExpandedCombination, number>();
  created.forEach((c, i) => orderOf.set(c, i));
  let current: ExpandedCombination | undefined;
  const add = (e: HostTaskEntry): void => {
    rank.set(e, current ? orderOf.get(current)! : created.length + rank.size);
    report.entries.push(e);
    report.counts[e.verdict]++;
    if (e.lifetime === 'expired') report.counts.expired++;
    if (e.lifetime === 'renewing') report.counts.renewing++;
  };
  const present = (c: ExpandedCombination, group: ObservedTask[], agent?: string): HostTaskEntry => {
    const sorted = [...group].sort((a, b) => startOf(b).localeCompare(startOf(a)));
    for (const t of group) used.add(t);
    const e: HostTaskEntry = {
      verdict: 'present',
      task: c.task,
      addresses: c.addressValues,
      hrefs: sorted.map((t) => t.href),
      ...lifetimeOf(group, read.readAt),
      runs: summariseRuns(group),
    };
    const type = testType(c.pscheduler);
    if (type) e.testType = type;
    if (agent !== undefined) e.agent = agent;
    return e;
  };
  const unmatched: ExpandedCombination[] = [];
  const seen = new Set<string>();
  for (const c of created) {
    if (c.agent !== read.host) continue;
    const k = checksumKey(c.pscheduler);
    if (seen.has(k)) continue; // pSConfig posts one task per checksum (identical-tasks.ts marks the rest)
    seen.add(k);
    const group = byKey.get(k);
    current = c;
    if (group) add(present(c, group));
    else unmatched.push(c);
  }
  // Other agents' tasks posted to this host's pScheduler (it leads them).
  for (const [k, group] of byKey) {
    const c = expectedKeys.get(k);
    if (!c || c.agent === read.host || group.every((t) => used.has(t))) continue;
    current = c;
    add(present(c, group, c.agent));
  }
  const leftovers = enabled.filter((t) => !used.has(t));
  for (const c of unmatched) {
    current = c;
    // A task of another host's list with this JSON: the lead holds it (the agent posted it there).
    const elsewhere = (where.get(checksumKey(c.pscheduler)) ?? []).filter((x) => x.host !== read.host);
    if (elsewhere.length) {
      const e = present(
        c,
        elsewhere.map((x) => x.task),
      );
      e.hints = [`held by the pScheduler of ${[...new Set(elsewhere.map((x) => x.host))].join(', ')} (the lead)`];
      add(e);
      continue;
    }
    let best: { t: ObservedTask; parts: ReturnType<typeof taskParts> } | undefined;
    for (const t of leftovers) {
      if (used.has(t) || !sameIdentity(c, t)) continue;
      const parts = taskParts(
        comparableTask(t.json) as unknown as PSchedulerTask,
        comparableTask(c.pscheduler) as unknown as PSchedulerTask,
      );
      if (!best || parts.length < best.parts.length) best = { t, parts };
    }
    if (best) {
      const group = leftovers.filter((t) => !used.has(t) && checksumKey(t.json) === checksumKey(best.t.json));
      for (const t of group) used.add(t);
      const e: HostTaskEntry = {
        verdict: 'different',
        task: c.task,
        addresses: c.addressValues,
        hrefs: group.map((t) => t.href),
        parts: best.parts,
        ...lifetimeOf(group, read.readAt),
        runs: summariseRuns(group),
      };
      const type = testType(c.pscheduler);
      if (type) e.testType = type;
      add(e);
      continue;
    }
    const e: HostTaskEntry = {
      verdict: 'missing',
      task: c.task,
      addresses: c.addressValues,
      hints: missingHints(c, read.host),
    };
    if (c.pscheduler) e.expected = c.pscheduler;
    const type = testType(c.pscheduler);
    if (type) e.testType = type;
    add(e);
  }
  // What is left: pSConfig created it from something this template does not make (another template, an old mesh).
  const extraGroups = new Map<string, ObservedTask[]>();
  for (const t of leftovers) {
    if (used.has(t)) continue;
    const k = checksumKey(t.json);
    const l = extraGroups.get(k);
    if (l) l.push(t);
    else extraGroups.set(k, [t]);
  }
  current = undefined;
  for (const group of extraGroups.values()) {
    const sorted = [...group].sort((a, b) => startOf(b).localeCompare(startOf(a)));
    const first = sorted[0].json;
    const e: HostTaskEntry = {
      verdict: 'extra',
      hrefs: sorted.map((t) => t.href),
      ...lifetimeOf(group, read.readAt),
      runs: summariseRuns(group),
    };
    const type = testType(first);
    if (type) e.testType = type;
    const ref = first.reference;
    if (isObject(ref) && isObject(ref.psconfig) && isObject(ref.psconfig['created-by']))
      e.createdBy = ref.psconfig['created-by'];
    add(e);
  }
  report.entries.sort((a, b) => rank.get(a)! - rank.get(b)!);
  return report;
}
