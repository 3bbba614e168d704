// The simulated schedule's findings as diagnostics on the template. The model (server/src/template/schedule/) finds
// what will not run as meant; this places each finding where it is fixed:
// - runs lost (non-starters), on the task's name, with the re-simulated schedule changes as quick fixes;
// - a run as long as the repeat, a slip cut by the repeat, a slip shorter than the run (the horizon cut), on the
//   schedule's `repeat` or `slip`;
// - a throughput test over the default remote limits, on the spec field over the limit;
// - a host whose exclusive runs need more than the day, on the address object naming it (else on its tasks).
// - a simulation that could not finish (too large for the editor's time limit), once, on the `tasks` key.
import type { ScheduleFinding, ScheduleFindingKind, ScheduleSuggestion } from '../schedule';
import type { TemplateModel } from '../model';
import { firstMember, keyOf, propertyValue, stringValue, type JsonNode } from '../parse';
import { DEFAULT_REMOTE_LIMITS } from '../schedule';
import type { DiagnosticCode } from '../rules/codes';
import { diag, type ScheduleChange, type TemplateDiagnostic } from '../rules/diagnostic';

const CODES: Record<ScheduleFindingKind, DiagnosticCode> = {
  'lost-runs': 'psconfig/schedule-runs-lost',
  'horizon-cut': 'psconfig/schedule-horizon-cut',
  'duration-reaches-repeat': 'psconfig/schedule-duration-reaches-repeat',
  'slip-cut': 'psconfig/schedule-slip-cut',
  'remote-limits': 'psconfig/throughput-remote-limits',
  'host-overloaded': 'psconfig/host-overloaded',
};

/** The schedule object a task names (`"schedule": "name"`), if it names one. */
export function scheduleOfTask(model: TemplateModel, task: string): string | undefined {
  return stringValue(propertyValue(model.task(task)?.node, 'schedule'));
}

/** The template tasks that use the same schedule object as `task` (a change to it changes them all). */
export function tasksSharingSchedule(model: TemplateModel, task: string): string[] {
  const schedule = scheduleOfTask(model, task);
  if (schedule === undefined) return [task];
  return model.tasks.filter((t) => !t.disabled && scheduleOfTask(model, t.name) === schedule).map((t) => t.name);
}

/** [start, end) of a node's text, or of a definition's name. */
type Span = { start: number; end: number };

function spanOf(node: JsonNode | undefined): Span | undefined {
  return node ? { start: node.offset, end: node.offset + node.length } : undefined;
}

function definitionSpan(model: TemplateModel, kind: 'tasks' | 'schedules' | 'tests', name: string): Span | undefined {
  const d = model.index.definitionsOf(kind, name).at(-1);
  return d ? { start: d.start, end: d.end } : undefined;
}

function definitionValue(
  model: TemplateModel,
  kind: 'schedules' | 'tests' | 'addresses',
  name: string,
): JsonNode | undefined {
  return model.index.definitionsOf(kind, name).at(-1)?.valueNode;
}

/** Where a finding about a task's schedule goes: the schedule's `field` (else its name; else the task's name). */
function scheduleField(model: TemplateModel, task: string, fields: string[]): Span | undefined {
  const schedule = scheduleOfTask(model, task);
  if (schedule !== undefined) {
    const value = definitionValue(model, 'schedules', schedule);
    for (const f of fields) {
      const at = spanOf(propertyValue(value, f));
      if (at) return at;
    }
    const name = definitionSpan(model, 'schedules', schedule);
    if (name) return name;
  }
  return definitionSpan(model, 'tasks', task);
}

/** The spec fields over each default remote limit (pscheduler_limits.conf's throughput-default-*). */
const LIMIT_FIELDS: [string, string[]][] = [
  [DEFAULT_REMOTE_LIMITS.time, ['duration']],
  [DEFAULT_REMOTE_LIMITS.parallel, ['parallel']],
  [DEFAULT_REMOTE_LIMITS.udp, ['bandwidth', 'udp']],
];

function specFields(model: TemplateModel, task: string, limits: readonly string[]): Span[] {
  const test = model.task(task)?.test;
  const spec = test === undefined ? undefined : propertyValue(definitionValue(model, 'tests', test), 'spec');
  const out: Span[] = [];
  for (const [limit, fields] of LIMIT_FIELDS) {
    if (!limits.includes(limit)) continue;
    for (const f of fields) {
      const at = spanOf(propertyValue(spec, f));
      if (at) {
        out.push(at);
        break;
      }
    }
  }
  return out;
}

/** The address objects whose `address` is `host` (the string the participants name it by). */
function addressesNaming(model: TemplateModel, host: string): Span[] {
  const out: Span[] = [];
  for (const name of model.index.namesIn('addresses')) {
    const value = definitionValue(model, 'addresses', name);
    if (stringValue(propertyValue(value, 'address')) === host) {
      const at = model.index.definitionsOf('addresses', name).at(-1);
      if (at) out.push({ start: at.start, end: at.end });
    }
  }
  return out;
}

/** A schedule change as the quick fix applies it, titled by what the re-simulation showed. */
function changeOf(model: TemplateModel, s: ScheduleSuggestion): ScheduleChange | undefined {
  const schedule = scheduleOfTask(model, s.task);
  if (schedule === undefined) return undefined;
  const set = Object.entries(s.change)
    .map(([k, v]) => `"${k}": ${JSON.stringify(v)}`)
    .join(', ');
  return { schedule, change: { ...s.change }, title: `Set ${set} in schedule "${schedule}": ${s.message}` };
}

/**
 * Diagnostics for the findings. `tasksOf(finding)`: the template tasks a host's finding concerns (from the model's
 * combinations), for a host no address object names. `suggestions`: per template task, schedule changes the
 * re-simulation showed to fit, offered as quick fixes on its lost-runs diagnostic.
 */
export function scheduleDiagnostics(
  model: TemplateModel,
  findings: readonly ScheduleFinding[],
  suggestions: ReadonlyMap<string, readonly ScheduleSuggestion[]>,
  tasksOf: (f: ScheduleFinding) => string[],
): TemplateDiagnostic[] {
  const out: TemplateDiagnostic[] = [];
  for (const f of findings) {
    const code = CODES[f.kind];
    let spans: Span[] = [];
    let message = f.message;
    switch (f.kind) {
      case 'lost-runs': {
        const at = f.task !== undefined ? definitionSpan(model, 'tasks', f.task) : undefined;
        if (!at) break;
        const changes = (suggestions.get(f.task!) ?? []).map((s) => changeOf(model, s)).filter((c) => c !== undefined);
        out.push(
          diag(
            code,
            f.severity,
            message,
            at.start,
            at.end,
            changes.length ? { data: { kind: 'schedule-change', changes } } : undefined,
          ),
        );
        continue;
      }
      case 'duration-reaches-repeat':
        spans = f.task !== undefined ? [scheduleField(model, f.task, ['repeat'])].filter((s) => s !== undefined) : [];
        break;
      case 'slip-cut':
      case 'horizon-cut':
        spans =
          f.task !== undefined ? [scheduleField(model, f.task, ['slip', 'repeat'])].filter((s) => s !== undefined) : [];
        break;
      case 'remote-limits':
        if (f.task === undefined) break;
        spans = specFields(model, f.task, f.limits ?? []);
        if (!spans.length) spans = [definitionSpan(model, 'tasks', f.task)].filter((s) => s !== undefined);
        break;
      case 'host-overloaded':
        spans = f.host !== undefined ? addressesNaming(model, f.host) : [];
        if (!spans.length) {
          spans = tasksOf(f)
            .map((t) => definitionSpan(model, 'tasks', t))
            .filter((s) => s !== undefined);
          message = `${message} (no address object names ${f.host}: shown on the tasks that use it)`;
        }
        break;
    }
    for (const s of spans) out.push(diag(code, f.severity, message, s.start, s.end));
  }
  return out;
}

/** A simulation that could not finish: one note on the `tasks` key, so a silent editor is not taken for "fits". */
export function notSimulated(model: TemplateModel, message: string): TemplateDiagnostic {
  const prop = firstMember(model.parsed.root, 'tasks');
  const key = prop ? keyOf(prop) : undefined;
  const at = key ? { start: key.offset, end: key.offset + key.length } : { start: 0, end: 1 };
  return diag('psconfig/schedule-not-simulated', 'information', message, at.start, at.end);
}
