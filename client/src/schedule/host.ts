// The host timeline's host side (pure: no vscode import): loads the schedule report, turns it into the page's arrays
// (timeline-data.ts), answers the page's messages and reloads when the template changes. The VS Code panel and the
// Chromium harness both run it.
import type { ScheduleReport, Stoppable } from '../../../common/protocol';
import type { HostToTimeline, TimelineData, TimelineFocus, TimelineToHost } from './messages';
import { timelineOf } from './timeline-data';
import { realRunsOf, type TimelineObserved } from './timeline-observed';

/** What a load gives: the report (with runs), the simulated span, or why there is none. */
export interface TimelineSource extends Stoppable {
  report?: ScheduleReport;
  span?: { start: string; end: string };
  error?: string;
  /** Sentences the source adds to the page's notes (a simplification, a cut answer). */
  notes?: string[];
  /** What to highlight, when the source knows better than the opener (an agent's host found in the answer). */
  focus?: TimelineFocus;
  /** The last hosts read of the template (the Hosts view's): each host's real runs, drawn beside the simulated ones. */
  observed?: TimelineObserved;
}

export interface ScheduleHostDeps {
  post(msg: HostToTimeline): void;
  /** The schedule to draw (the language server's simulation, or a report read by a test). */
  load(): Promise<TimelineSource>;
  title: string;
  focus?: TimelineFocus;
  /** Show a task (combination) in the template. */
  open?(task: string, addresses: string[]): void | Promise<unknown>;
  log?(level: 'info' | 'error', text: string): void;
  maxRuns?: number;
}

export interface ScheduleHost {
  handle(msg: TimelineToHost): Promise<void>;
  /** Load again (the template changed, a button); resolves with what the page was sent. */
  refresh(): Promise<TimelineData | undefined>;
  /** Highlight another task or host without loading again. */
  setFocus(focus: TimelineFocus): void;
  /** New hosts read (the Hosts view read again): the real runs drawn again on the same simulation, not simulated
   *  again; undefined removes them. Resolves with what the page was sent (undefined before the first load). */
  setObserved(observed: TimelineObserved | undefined): TimelineData | undefined;
  /** What the page shows now (tests, the panel's command result). */
  current(): TimelineData | undefined;
  dispose(): void;
}

const MAX_STOPPED_LOADS = 3;
export const STOPPED_MESSAGE =
  'The template kept changing while it was simulated; the timeline loads again when the template changes or on Refresh.';

export function createScheduleHost(deps: ScheduleHostDeps): ScheduleHost {
  let disposed = false;
  let focus = deps.focus;
  let data: TimelineData | undefined;
  /** The notes of `data` before the real runs' were added (setObserved replaces those). */
  let baseNotes: string[] = [];
  let generation = 0;
  let running: Promise<TimelineData | undefined> | undefined;
  let again = false;
  /** Loads in a row that an edit stopped (the server answers `cancelled`): each is followed by one more. */
  let stopped = 0;

  const post = (m: HostToTimeline): void => {
    if (!disposed) deps.post(m);
  };
  const fail = (error: string): undefined => {
    post({ type: 'status', loading: false, error });
    return undefined;
  };

  /** `d` with the real runs of `observed` (and their notes) in place of any it had. */
  function withObserved(d: TimelineData, observed: TimelineObserved | undefined): TimelineData {
    delete d.real;
    d.notes = [...baseNotes];
    if (!observed) return d;
    const { real, notes } = realRunsOf(d, observed);
    if (real) d.real = real;
    d.notes.push(...notes);
    return d;
  }

  async function load(): Promise<TimelineData | undefined> {
    const mine = ++generation;
    post({ type: 'status', loading: true });
    let source: TimelineSource;
    try {
      source = await deps.load();
    } catch (err) {
      return fail(`The schedule could not be simulated: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (disposed || mine !== generation) return data;
    // An edit stopped this version's simulation: not an error of the template. The page keeps loading and the next
    // version is asked for (a few times in a row at most: after that, while the typing goes on, it says so).
    if (source.cancelled) {
      if (++stopped <= MAX_STOPPED_LOADS) return load();
      stopped = 0;
      return fail(STOPPED_MESSAGE);
    }
    stopped = 0;
    if (source.error || !source.report) return fail(source.error ?? 'The schedule could not be simulated.');
    if (source.focus) focus = source.focus;
    let next: TimelineData;
    try {
      next = timelineOf({ report: source.report, span: source.span, title: deps.title, focus, maxRuns: deps.maxRuns });
    } catch (err) {
      return fail(err instanceof Error ? err.message : String(err));
    }
    next.notes.unshift(...(source.notes ?? []));
    baseNotes = [...next.notes];
    withObserved(next, source.observed);
    data = next;
    post({ type: 'data', data });
    post({ type: 'status', loading: false });
    return data;
  }

  /** One load at a time; a request while one runs makes one more after it (the newest text wins). */
  function refresh(): Promise<TimelineData | undefined> {
    if (disposed) return Promise.resolve(undefined);
    if (running) {
      again = true;
      return running.then(() => (running ? running : refresh()));
    }
    const p = load()
      .catch((err: unknown) => {
        deps.log?.('error', `schedule timeline: ${err instanceof Error ? err.message : String(err)}`);
        return fail(err instanceof Error ? err.message : String(err));
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          void refresh();
        }
      });
    running = p;
    return p;
  }

  return {
    async handle(msg) {
      switch (msg.type) {
        case 'ready':
          // A page that was reloaded (VS Code does when a hidden panel comes back) gets what it showed.
          if (data) {
            post({ type: 'data', data });
            post({ type: 'status', loading: false });
          } else await refresh();
          return;
        case 'refresh':
          await refresh();
          return;
        case 'open':
          if (typeof msg.task === 'string' && Array.isArray(msg.addresses)) await deps.open?.(msg.task, msg.addresses);
          return;
        case 'log':
          deps.log?.(msg.level === 'error' ? 'error' : 'info', String(msg.text).slice(0, 2000));
          return;
      }
    },
    refresh,
    setFocus(f) {
      focus = f;
      if (data) data.focus = f;
      post({ type: 'focus', focus: f });
    },
    setObserved(observed) {
      if (!data || disposed) return undefined;
      data = withObserved({ ...data }, observed);
      post({ type: 'data', data });
      return data;
    },
    current: () => data,
    dispose() {
      disposed = true;
    },
  };
}
