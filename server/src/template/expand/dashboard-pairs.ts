// The expansion seen as dashboard grids: per task, the configured directions (spec source → spec destination)
// placed in a grid of the group's members, with the esmond archives each combination writes to. Pure (types from
// common/protocol only); the language server's worker and the CLI both derive it from an ExpandTasksResult.
import type {
  DashboardPairsResult,
  DashboardTaskPairs,
  ExpandedCombination,
  ExpandTasksResult,
} from '../../../../common/protocol';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

const HTTP_URL = /^https?:\/\//i;
/** The path esmond's REST interface lives under (reference esmond.md §1a). */
const ESMOND_PATH = /\/esmond\/perfsonar\/archive\/?(\?.*)?$/i;

/**
 * Where an archive of a task JSON can be read as esmond, or undefined:
 * - `esmond` archiver: `data.url` (what it writes to);
 * - any archiver whose data has `_meta.esmond_url`: that URL, as psconfig's MaDDash check plugins read it
 *   (perfsonar/psconfig plugins/checks/ps-nagios-throughput.json, `archive-accessor`);
 * - `http` archiver whose `_url` is itself an esmond archive path. Other http URLs (Logstash, OpenSearch ingest)
 *   receive raw pScheduler results and cannot be searched as esmond, so they are not used.
 */
export function esmondReadUrl(archive: unknown): string | undefined {
  if (!isObj(archive) || !isObj(archive.data)) return undefined;
  const data = archive.data;
  if (archive.archiver === 'esmond' && str(data.url) && HTTP_URL.test(data.url as string)) return data.url as string;
  const meta = isObj(data._meta) ? str(data._meta.esmond_url) : undefined;
  if (meta && HTTP_URL.test(meta)) return meta;
  const url = archive.archiver === 'http' ? str(data._url) : undefined;
  if (url && HTTP_URL.test(url) && ESMOND_PATH.test(url)) return url;
  return undefined;
}

/** Names of a disjoint group's A and B sides (selectors by name), or undefined when a side selects by class. */
export function disjointSides(template: unknown, group: string | undefined): { a: string[]; b: string[] } | undefined {
  if (!group || !isObj(template) || !isObj(template.groups)) return undefined;
  const g = template.groups[group];
  if (!isObj(g)) return undefined;
  const names = (list: unknown): string[] | undefined => {
    if (!Array.isArray(list)) return undefined;
    const out: string[] = [];
    for (const sel of list) {
      const n = isObj(sel) ? str(sel.name) : undefined;
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
  // A task pScheduler would refuse stays on the grid: its direction is configured (the agent posts it every run),
  // and the grid shows what the archive holds for it (nothing, or results from before the template changed).
  for (const c of combos) {
    if (!c.pscheduler) continue;
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
    const s = isObj(c.pscheduler.test.spec) ? c.pscheduler.test.spec : {};
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
    const urls = [...new Set(c.pscheduler.archives.map(esmondReadUrl).filter((u): u is string => !!u))];
    const setKey = urls.join('\n');
    const set = sets.add(setKey, setKey);
    if (set === archiveSets.length) archiveSets.push(urls.map((u) => archives.add(u, u)));
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
  };
}

/**
 * The dashboard grids of an expansion (all agents, no limit). `template` (the parsed template) is only read for
 * the sides of disjoint groups; without it, or when a side selects by class, a disjoint group is laid out as a
 * mesh of its members.
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
  for (const t of result.tasks) {
    if (wanted && !wanted.has(t.task)) continue;
    out.push(taskPairs(t, byTask.get(t.task) ?? [], template));
  }
  return {
    uri: result.uri,
    version: result.version,
    error: result.error,
    tasks: out,
    elapsedMs: performance.now() - started,
  };
}
