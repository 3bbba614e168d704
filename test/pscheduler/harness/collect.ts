// What a pScheduler instance holds after a scenario, read through its REST API only:
//   GET /tasks?expanded=true&detail=true       every task (expired ones stay listed) with its detail
//   GET /tasks/UUID/runs                       the task's run URLs (runs still in state "scheduling" are left out)
//   GET /tasks/UUID/runs/RUN                   one run: start-time, end-time, state, errors, added, priority
//   GET /schedule?start=&end=                  the instance's timeline, non-starters included
// (pscheduler-server/pscheduler-server/api-server/pschedulerapiserver/tasks.py, runs.py, schedule.py)
import { getJson } from './rest';

export interface LiveRun {
  href: string;
  /** ISO 8601 */
  start: string;
  end: string;
  state: string;
  /** pScheduler's own words for a non-starter ("No times available for this run.", ...). */
  errors: string | null;
  /** When the run was stored (the scheduler's decision). */
  added: string | null;
  priority: number | null;
}

export interface LiveTask {
  uuid: string;
  href: string;
  testType: string;
  spec: Record<string, unknown>;
  tool: string | null;
  repeat: string | null;
  slip: string | null;
  /** schedule.start as posted (null: the agent's first task has none) */
  start: string | null;
  until: string | null;
  /** detail.added: when pScheduler stored the task */
  added: string;
  /** detail.duration: the run's duration as the tool computed it */
  duration: string | null;
  exclusive: boolean | null;
  runs: LiveRun[];
}

export interface Collected {
  tasks: LiveTask[];
  /** The REST answers as returned (trimmed by `trimForFixture` before they are kept). */
  raw: { tasks: unknown; schedule: unknown; runs: Record<string, unknown[]> };
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export async function collectInstance(url: string, window: { start: string; end: string }): Promise<Collected> {
  const rawTasks = await getJson(`${url}/tasks?expanded=true&detail=true`);
  if (!Array.isArray(rawTasks)) throw new Error(`${url}/tasks: not a list`);
  const rawRuns: Record<string, unknown[]> = {};
  for (const t of rawTasks.map(obj)) {
    const href = str(t.href) ?? '';
    const runHrefs = await getJson(`${href}/runs`);
    if (!Array.isArray(runHrefs)) throw new Error(`${href}/runs: not a list`);
    const runs: unknown[] = [];
    for (const runHref of runHrefs) runs.push(await getJson(String(runHref)));
    rawRuns[uuidOf(href)] = runs;
  }
  const schedule = await getJson(
    `${url}/schedule?start=${encodeURIComponent(window.start)}&end=${encodeURIComponent(window.end)}`,
  );
  return { tasks: tasksFromAnswers(rawTasks, rawRuns), raw: { tasks: rawTasks, schedule, runs: rawRuns } };
}

function uuidOf(href: string): string {
  return href.slice(href.lastIndexOf('/') + 1);
}

/**
 * The tasks and runs of the REST answers (GET /tasks?expanded=true&detail=true and each run's GET by task UUID),
 * tasks in the order pScheduler stored them, runs by start time. Pure: the unit tests read recorded answers.
 */
export function tasksFromAnswers(rawTasks: unknown, rawRuns: Record<string, unknown[]>): LiveTask[] {
  if (!Array.isArray(rawTasks)) throw new Error('tasks answer: not a list');
  const tasks: LiveTask[] = [];
  for (const t of rawTasks.map(obj)) {
    const detail = obj(t.detail);
    const schedule = obj(t.schedule);
    const test = obj(t.test);
    const href = str(t.href) ?? '';
    const uuid = uuidOf(href);
    const runs: LiveRun[] = (rawRuns[uuid] ?? []).map(obj).map((r) => ({
      href: str(r.href) ?? '',
      start: String(r['start-time']),
      end: String(r['end-time']),
      state: String(r.state),
      errors: str(r.errors),
      added: str(r.added),
      priority: typeof r.priority === 'number' ? r.priority : null,
    }));
    runs.sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
    tasks.push({
      uuid,
      href,
      testType: String(test.type),
      spec: obj(test.spec),
      tool: str(t.tool),
      repeat: str(schedule.repeat),
      slip: str(schedule.slip),
      start: str(schedule.start),
      until: str(schedule.until),
      added: String(detail.added),
      duration: str(detail.duration),
      exclusive: typeof detail.exclusive === 'boolean' ? detail.exclusive : null,
      runs,
    });
  }
  return tasks.sort((a, b) => Date.parse(a.added) - Date.parse(b.added));
}
