// The expansion seen as dashboard grids: per task, the configured directions (spec source → spec destination)
// placed in a grid of the group's members, with the esmond archives each combination writes to. Pure (types from
// common/protocol only); the language server's worker and the CLI both derive it from an ExpandTasksResult.
import type {
  DashboardPairsResult,
  DashboardTaskPairs,
  ExpandedCombination,
  ExpandTasksResult,
} from '../../../../common/protocol';
import { archivesFor } from './pscheduler-task';
import { Json, JsonObject, section, str as templateStr, stripHashKeys, TemplateView } from './template-view';
import { isObject } from '../../../../common/json';

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

const HTTP_URL = /^https?:\/\//i;
/** The path esmond's REST interface lives under (reference esmond.md §1a). */
const ESMOND_PATH = /\/esmond\/perfsonar\/archive\/?(\?.*)?$/i;

/**
 * Where an archive of a task JSON can be read as esmond, or undefined:
 * - `esmond` archiver: `data.url` (what it writes to);
 * - an archive whose `_meta.esmond_url` names one: that URL. Its place is the archive's top level (`origin`: the
 *   template's archive object, since pSConfig strips that `_meta` before posting, task_generator.py
 *   `_pscheduler_prep`; perfsonar/archive opensearch-scripts/psconfig_archive.sh writes it there). Older templates
 *   put it in `data` (perfsonar/psconfig doc/example-*.json), where psconfig's MaDDash check plugins read it
 *   (plugins/checks/ps-nagios-throughput.json, `archive-accessor`) but pScheduler's http archiver refuses the task;
 *   that place is read too;
 * - `http` archiver whose `_url` is itself an esmond archive path. Other http URLs (Logstash, OpenSearch ingest)
 *   receive raw pScheduler results and cannot be searched as esmond, so they are not used.
 */
export function esmondReadUrl(archive: unknown, origin?: unknown): string | undefined {
  if (!isObject(archive) || !isObject(archive.data)) return undefined;
  const data = archive.data;
  if (archive.archiver === 'esmond' && str(data.url) && HTTP_URL.test(data.url as string)) return data.url as string;
  for (const meta of [isObject(origin) ? origin._meta : undefined, archive._meta, data._meta]) {
    const url = isObject(meta) ? str(meta.esmond_url) : undefined;
    if (url && HTTP_URL.test(url)) return url;
  }
  const url = archive.archiver === 'http' ? str(data._url) : undefined;
  if (url && HTTP_URL.test(url) && ESMOND_PATH.test(url)) return url;
  return undefined;
}

/**
 * The template's archive objects behind a combination's task JSON archives, index for index: the task's archives
 * then its scheduler's host's, de-duplicated as the engine does (archivesFor), so the dashboard can read the
 * top-level `_meta` pSConfig strips from the task JSON. Undefined when it cannot tell (a task, archive or address
 * from an include, an agent it cannot place): the task JSON's own archives are then read alone.
 */
class ArchiveOrigins {
  private readonly view: Pick<TemplateView, 'archives' | 'hosts'>;
  private readonly tasks: Map<string, JsonObject>;
  private readonly addresses: Map<string, JsonObject>;
  private readonly byTaskAndHost = new Map<string, JsonObject[] | undefined>();

  constructor(template: unknown) {
    const raw: JsonObject = isObject<JsonObject>(template) ? template : {};
    this.tasks = section(raw, 'tasks');
    this.addresses = section(raw, 'addresses');
    let archives: Json = {};
    try {
      archives = isObject(raw.archives) ? stripHashKeys(raw.archives) : {}; // as the engine compares them
    } catch {
      archives = {}; // nested too deep: the expansion reported it
    }
    this.view = { archives: section({ archives }, 'archives'), hosts: section(raw, 'hosts') };
  }

  of(c: ExpandedCombination): JsonObject[] | undefined {
    const task = this.tasks.get(c.task);
    if (!task) return undefined;
    // The scheduler is the member whose address object has the agent's address (label and remote entries are
    // named by their parent, whose address and host they use).
    const scheduler =
      c.agent === undefined
        ? undefined
        : c.addresses.map((n) => this.addresses.get(n)).find((a) => a?.address === c.agent);
    const hostRef = scheduler ? templateStr(scheduler.host) : undefined;
    const key = `${c.task}\u0000${hostRef ?? ''}`;
    if (this.byTaskAndHost.has(key)) return this.byTaskAndHost.get(key);
    const found = archivesFor(this.view, task, { hostRef });
    const value = found.ok ? found.value : undefined;
    this.byTaskAndHost.set(key, value);
    return value;
  }
}

/** Names of a disjoint group's A and B sides (selectors by name), or undefined when a side selects by class. */
export function disjointSides(template: unknown, group: string | undefined): { a: string[]; b: string[] } | undefined {
  if (!group || !isObject(template) || !isObject(template.groups)) return undefined;
  const g = template.groups[group];
  if (!isObject(g)) return undefined;
  const names = (list: unknown): string[] | undefined => {
    if (!Array.isArray(list)) return undefined;
    const out: string[] = [];
    for (const sel of list) {
      const n = isObject(sel) ? str(sel.name) : undefined;
      if (!n) return undefined;
      out.push(n);
    }
    return out;
  };
  const a = names(g['a-addresses']);
  const b = names(g['b-addresses']);
  return a && b ? { a, b } : undefined;
}

class Indexer {
  readonly keys: string[] = [];
  readonly labels: string[] = [];
  private readonly map = new Map<string, number>();
  add(key: string, label: string): number {
    let i = this.map.get(key);
    if (i === undefined) {
      i = this.keys.length;
      this.map.set(key, i);
      this.keys.push(key);
      this.labels.push(label);
    }
    return i;
  }
}

function taskPairs(
  task: ExpandTasksResult['tasks'][number],
  combos: ExpandedCombination[],
  template: unknown,
  origins: ArchiveOrigins,
): DashboardTaskPairs {
  const groupType = task.groupType;
  const list = groupType === 'list';
  const sides = groupType === 'disjoint' ? disjointSides(template, task.group) : undefined;
  const square = !list && !sides;
  const rows = new Indexer();
  const cols = square ? rows : new Indexer();
  const endpoints = new Indexer();
  const archives = new Indexer();
  const sets = new Indexer();
  const archiveSets: number[][] = [];
  const directions: number[] = [];
  const placed = new Set<number>();
  const aSide = new Set(sides?.a);
  const bSide = new Set(sides?.b);
  const listDests = new Set<string>();
  let failed = 0;
  let error: string | undefined;
  let spec: DashboardTaskPairs['spec'] | undefined;
  // Rows first from the first members (pSConfig iterates them in the group's order), then the others: members an
  // exclude keeps out of the first position still come in template order.
  // A task pScheduler would refuse stays on the grid, marked refused: its direction is configured (the agent posts it
  // every run) but no task is created, so nothing new reaches the archive; the grid says so instead of "no data".
  let identical = 0;
  let identicalTo: DashboardTaskPairs['identicalTo'];
  const refusedDirections: number[] = [];
  const refusedReason: number[] = [];
  const reasons = new Indexer();
  for (const c of combos) {
    if (!c.pscheduler || isDuplicate(c)) continue;
    if (sides) {
      if (aSide.has(c.addresses[0]) && bSide.has(c.addresses[1])) rows.add(c.addresses[0], c.addressValues[0]);
    } else rows.add(c.addresses[0] ?? c.addressValues[0] ?? '', c.addressValues[0] ?? c.addresses[0] ?? '');
  }
  for (const c of combos) {
    if (!c.pscheduler) {
      failed++;
      error ??= c.error;
      continue;
    }
    // The agent creates the task it duplicates (of this task or another): its results are that task's, on its grid.
    if (isDuplicate(c)) {
      identical++;
      identicalTo ??= c.identicalTo;
      continue;
    }
    const s = isObject(c.pscheduler.test.spec) ? c.pscheduler.test.spec : {};
    if (!spec) {
      spec = {};
      if (typeof s['ip-version'] === 'number') spec.ipVersion = s['ip-version'];
      if (s.udp === true) spec.udp = true;
      if (c.pscheduler.tools?.length) spec.tools = c.pscheduler.tools;
    }
    // The archiver records input-source = spec source, else the lead participant (perfsonar/pscheduler
    // pscheduler-archiver-esmond/esmond/esmond_util.py EsmondBaseRecord), and input-destination = spec dest.
    const src = str(s.source) ?? c.agent ?? c.addressValues[0];
    const dst = str(s.dest) ?? str(s.destination) ?? c.addressValues[1];
    if (!src || !dst) continue;
    const name = (i: number): string => c.addresses[i] ?? c.addressValues[i] ?? '';
    const label = (i: number): string => c.addressValues[i] ?? c.addresses[i] ?? '';
    let row: number;
    let col: number;
    let half = 0;
    if (list) {
      row = rows.add(name(0), label(0));
      col = cols.add('', '');
      listDests.add(dst);
    } else if (sides) {
      const [n0, n1] = [name(0), name(1)];
      if (aSide.has(n0) && bSide.has(n1)) {
        row = rows.add(n0, label(0));
        col = cols.add(n1, label(1));
      } else if (aSide.has(n1) && bSide.has(n0)) {
        row = rows.add(n1, label(1));
        col = cols.add(n0, label(0));
        half = 1;
      } else continue;
    } else {
      row = rows.add(name(0), label(0));
      col = cols.add(name(1), label(1));
    }
    const key = (row * 1_000_003 + col) * 2 + half;
    if (placed.has(key)) continue;
    placed.add(key);
    const from = origins.of(c);
    const written = c.pscheduler.archives;
    const aligned = from?.length === written.length ? from : undefined;
    const urls = [...new Set(written.map((a, i) => esmondReadUrl(a, aligned?.[i])).filter((u): u is string => !!u))];
    const setKey = urls.join('\n');
    const set = sets.add(setKey, setKey);
    if (set === archiveSets.length) archiveSets.push(urls.map((u) => archives.add(u, u)));
    if (c.refused && c.error !== undefined) {
      refusedDirections.push(directions.length / 6);
      refusedReason.push(reasons.add(c.error, c.error));
    }
    directions.push(row, col, half, endpoints.add(src, src), endpoints.add(dst, dst), set);
  }
  if (list && cols.labels.length)
    cols.labels[0] = listDests.size === 1 ? [...listDests][0] : `${task.testType ?? 'test'}`;
  return {
    task: task.task,
    testType: task.testType,
    groupType,
    rows: rows.keys,
    rowLabels: rows.labels,
    cols: cols.keys,
    colLabels: cols.labels,
    square,
    endpoints: endpoints.keys,
    archives: archives.keys,
    archiveSets,
    directions,
    spec: spec ?? {},
    failed,
    error: error ?? task.error,
    ...(identical ? { identical, identicalTo } : {}),
    ...(refusedDirections.length ? { refusedDirections, refusedReason, refusedReasons: reasons.keys } : {}),
  };
}

/** Identical to an earlier task of its agent and not failed itself (identical-tasks.ts). */
const isDuplicate = (c: ExpandedCombination): boolean => c.identicalTo !== undefined && c.error === undefined;

/**
 * The dashboard grids of an expansion (all agents, no limit). `template` (the parsed template) is read for the
 * sides of disjoint groups and for the archives' top-level `_meta`; without it, or when a side selects by class, a
 * disjoint group is laid out as a mesh of its members.
 */
export function dashboardPairsOf(
  result: ExpandTasksResult,
  template: unknown,
  tasks?: readonly string[],
): DashboardPairsResult {
  const started = performance.now();
  const wanted = tasks?.length ? new Set(tasks) : undefined;
  const byTask = new Map<string, ExpandedCombination[]>();
  for (const c of result.combinations) {
    if (wanted && !wanted.has(c.task)) continue;
    let l = byTask.get(c.task);
    if (!l) byTask.set(c.task, (l = []));
    l.push(c);
  }
  const out: DashboardTaskPairs[] = [];
  const origins = new ArchiveOrigins(template);
  for (const t of result.tasks) {
    if (wanted && !wanted.has(t.task)) continue;
    out.push(taskPairs(t, byTask.get(t.task) ?? [], template, origins));
  }
  return {
    uri: result.uri,
    version: result.version,
    error: result.error,
    tasks: out,
    elapsedMs: performance.now() - started,
  };
}
