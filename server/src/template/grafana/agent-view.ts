// What perfSONAR 5's Grafana agent does with each task of a template: draws its grid, draws a grid that stays
// empty, or skips it, and why. Read from perfsonar/psconfig @ 3ba99274, psconfig/perfsonar-psconfig/psconfig/
// grafana/agent.py (`_run_handle_psconfig`, lines 180-377; `_select_gf_datasource`, 640-689), the grid template
// templates/grafana.json.j2 and the shipped configuration etc/grafana-agent.json. Per task, in the agent's order:
//   1. a disabled task is skipped (line 207);
//   2. a display must match the task's test type (lines 238-258, "No display config for task … Skipping."); the
//      shipped displays cover latencybg, latency, rtt, throughput, trace, dns and http;
//   3. the group must have two dimensions: mesh or disjoint, not list (lines 283-285);
//   4. with the shipped `datasource_selector: auto`, an archive of the task must name the datasource: `_meta` with
//      `grafana-datasource-url`, or `data._url` ending in `/logstash` (lines 646-661; line 656 calls the setter
//      `archive.archiver("http")`, which is always true, so the archiver itself is never checked), else "Unable to
//      find a suitable archive" and no grid — unless the Grafana host's archives.d adds one or grafana-agent.json
//      names a datasource, which a template cannot show;
//   5. the grid's query is `reference.display-task-name.keyword: "<name>"` (grafana.json.j2): the name falls back to
//      the task name for the title (lines 289-292), but results carry only the task's own `reference`, so without
//      `display-task-name` nothing matches and the grid is empty; two tasks with one display name share their data;
//   6. dashboards: "All perfSONAR Measurements" (task-group-default) plus `reference.display-task-group`, read only
//      when it is a list (lines 271-274).
// Simplification: the agent reads the archives of the task's first combination (its scheduler's host); here any
// host of the group's named addresses counts.
import type { TemplateModel, TaskInfo } from '../model';
import { propertyValue, stringValue, type JsonNode } from '../parse';
import { sectionNode } from '../symbols';
import type { DiagnosticCode } from '../rules/codes';
import { diag, type TemplateDiagnostic } from '../rules/diagnostic';

/** The shipped displays' test types (etc/grafana-agent.json `displays.*.task_selector.test_types`). */
export const DISPLAYED_TEST_TYPES = ['latencybg', 'latency', 'rtt', 'throughput', 'trace', 'dns', 'http'];
/** The shipped `task-group-default`: every drawn task's grid is on this dashboard. */
export const DEFAULT_DASHBOARD = 'All perfSONAR Measurements';

export type GrafanaVerdict = 'grid' | 'empty-grid' | 'no-grid' | 'disabled';

export interface GrafanaFinding {
  code: DiagnosticCode;
  severity: 'information' | 'warning';
  message: string;
  start: number;
  end: number;
}

export interface GrafanaTaskView {
  task: string;
  /** The task's name in the template (for lenses). */
  start: number;
  end: number;
  verdict: GrafanaVerdict;
  /** Short reason for the lens, when there is no grid or an empty one. */
  why?: string;
  /** `reference.display-task-name`, when it is a non-empty string. */
  displayName?: string;
  /** The dashboards the grid lands on (when it is drawn). */
  dashboards: string[];
  findings: GrafanaFinding[];
}

/** Variables whose value differs between the task's combinations (the agent expands the reference once). */
const PER_COMBINATION =
  /\{%\s+(address\[|pscheduler_address\[|lead_bind_address\[|scheduled_by_address|flip|localhost)/;

const views = new WeakMap<TemplateModel, GrafanaTaskView[]>();

/** One view per task, in template order; computed once per model (diagnostics and lenses share it). */
export function grafanaView(model: TemplateModel): GrafanaTaskView[] {
  let out = views.get(model);
  if (!out) views.set(model, (out = build(model)));
  return out;
}

function build(model: TemplateModel): GrafanaTaskView[] {
  const root = model.parsed.root;
  const archives = sectionNode(root, 'archives');
  const addresses = sectionNode(root, 'addresses');
  const hosts = sectionNode(root, 'hosts');
  const tests = sectionNode(root, 'tests');
  const datasourceArchive = new Map<string, boolean>();
  const isDatasource = (name: string): boolean => {
    let v = datasourceArchive.get(name);
    if (v === undefined) datasourceArchive.set(name, (v = namesDatasource(propertyValue(archives, name))));
    return v;
  };
  // Per group: do the hosts of its addresses bring a datasource archive?
  const groupHasDatasource = new Map<string, boolean>();
  const viaHosts = (group: string): boolean => {
    let v = groupHasDatasource.get(group);
    if (v !== undefined) return v;
    v = false;
    for (const a of model.groups.get(group)?.addressNames ?? []) {
      const host = stringValue(propertyValue(propertyValue(addresses, a), 'host'));
      const list = host === undefined ? undefined : propertyValue(propertyValue(hosts, host), 'archives');
      if (
        list?.type === 'array' &&
        (list.children ?? []).some((n) => n.type === 'string' && isDatasource(String(n.value)))
      ) {
        v = true;
        break;
      }
    }
    groupHasDatasource.set(group, v);
    return v;
  };

  const out: GrafanaTaskView[] = [];
  for (const task of model.tasks) {
    const defs = model.index.definitionsOf('tasks', task.name);
    const def = defs[defs.length - 1];
    if (!def) continue;
    const at = { start: def.start, end: def.end };
    const view: GrafanaTaskView = { task: task.name, ...at, verdict: 'grid', dashboards: [], findings: [] };
    out.push(view);
    if (task.disabled) {
      view.verdict = 'disabled';
      view.why = 'disabled';
      continue;
    }
    const group = task.group === undefined ? undefined : model.groups.get(task.group);
    const testType =
      task.test === undefined ? undefined : stringValue(propertyValue(propertyValue(tests, task.test), 'type'));
    // A missing group or test, or an untyped group: the other checks report it; nothing to say about Grafana.
    if (!group?.type || testType === undefined) {
      out.pop();
      continue;
    }
    const blocked = (why: string, code: DiagnosticCode, message: string): void => {
      view.verdict = 'no-grid';
      view.why = why;
      view.findings.push({ code, severity: 'information', message, ...at });
    };
    if (!DISPLAYED_TEST_TYPES.includes(testType)) {
      blocked(
        `no display for ${testType} tests`,
        'psconfig/grafana-no-display',
        `Grafana: perfSONAR 5's Grafana agent draws no grid for this task: its displays (grafana-agent.json) cover ${DISPLAYED_TEST_TYPES.join(', ')} tests, not ${testType} ("No display config for task"), unless a display of your own selects it.`,
      );
      continue;
    }
    if (group.type === 'list') {
      blocked(
        'a list group',
        'psconfig/grafana-list-group',
        `Grafana: perfSONAR 5's Grafana agent draws no grid for this task: its group "${group.name}" is a list, and the agent draws only mesh and disjoint groups ("Only support groups with 2 dimensions").`,
      );
      continue;
    }
    if (!task.archives.some(isDatasource) && !viaHosts(group.name)) {
      blocked(
        'no logstash archive',
        'psconfig/grafana-no-logstash',
        'Grafana: no archive of this task can be perfSONAR 5\'s Grafana datasource (an archive whose data `_url` ends in `/logstash`, or whose `_meta` has `grafana-datasource-url`): the Grafana agent skips the grid ("Unable to find a suitable archive") unless the Grafana host\'s archives.d adds one or its grafana-agent.json names a datasource.',
      );
      continue;
    }
    const reference = propertyValue(task.node, 'reference');
    readDashboards(view, reference);
    const nameNode = propertyValue(reference, 'display-task-name');
    const name = stringValue(nameNode);
    if (!name) {
      view.verdict = 'empty-grid';
      view.why = 'no reference.display-task-name';
      const refKey = reference ? keyRange(reference) : undefined;
      view.findings.push({
        code: 'psconfig/grafana-no-display-name',
        severity: 'information',
        message: `Grafana: this task has no \`reference.display-task-name\`. perfSONAR 5's Grafana agent draws its grid (titled "${task.name}") but finds results by that name (\`reference.display-task-name.keyword\`), which the archived results of this task do not carry: the grid stays empty.`,
        ...(refKey ?? at),
      });
      continue;
    }
    view.displayName = name;
    if (PER_COMBINATION.test(name))
      view.findings.push({
        code: 'psconfig/grafana-display-name-varies',
        severity: 'information',
        message:
          "Grafana: this display-task-name changes with the task's addresses. The Grafana agent expands it for the first combination only and queries that name, so the other combinations' results stay out of the grid.",
        ...tokenRange(nameNode!),
      });
  }
  sharedNames(model, out);
  return out;
}

/** Dashboards of a drawn grid, and a warning when `display-task-group` is not a list (the agent ignores it). */
function readDashboards(view: GrafanaTaskView, reference: JsonNode | undefined): void {
  view.dashboards = [DEFAULT_DASHBOARD];
  const groups = propertyValue(reference, 'display-task-group');
  if (!groups) return;
  if (groups.type !== 'array') {
    view.findings.push({
      code: 'psconfig/grafana-task-group-not-list',
      severity: 'warning',
      message:
        'Grafana: `display-task-group` must be a list of dashboard names (`["My mesh"]`): the Grafana agent ignores anything else, so this task appears only on "All perfSONAR Measurements".',
      ...tokenRange(groups),
    });
    return;
  }
  for (const g of groups.children ?? [])
    if (g.type === 'string' && !view.dashboards.includes(String(g.value))) view.dashboards.push(String(g.value));
}

/** Tasks drawn under one literal display name share one set of results: each grid shows the others' too. */
function sharedNames(model: TemplateModel, views: GrafanaTaskView[]): void {
  const byName = new Map<string, GrafanaTaskView[]>();
  for (const v of views) {
    if (v.verdict !== 'grid' || !v.displayName || v.displayName.includes('{%')) continue;
    byName.set(v.displayName, [...(byName.get(v.displayName) ?? []), v]);
  }
  for (const [name, same] of byName) {
    if (same.length < 2) continue;
    for (const v of same) {
      const task = model.task(v.task) as TaskInfo;
      const node = propertyValue(propertyValue(task.node, 'reference'), 'display-task-name')!;
      const others = same.filter((o) => o !== v).map((o) => `"${o.task}"`);
      v.findings.push({
        code: 'psconfig/grafana-shared-display-name',
        severity: 'information',
        message: `Grafana: task${others.length > 1 ? 's' : ''} ${others.join(', ')} ${others.length > 1 ? 'have' : 'has'} the same display-task-name "${name}". The Grafana agent finds results by that name, so each grid shows the results of both tasks mixed.`,
        ...tokenRange(node),
      });
    }
  }
}

/** An archive the agent can make its datasource from (agent.py 650-661). */
function namesDatasource(archive: JsonNode | undefined): boolean {
  if (archive?.type !== 'object') return false;
  if (stringValue(propertyValue(propertyValue(archive, '_meta'), 'grafana-datasource-url'))) return true;
  const url = stringValue(propertyValue(propertyValue(archive, 'data'), '_url'));
  return url !== undefined && url.endsWith('/logstash');
}

function tokenRange(n: JsonNode): { start: number; end: number } {
  return n.type === 'object' || n.type === 'array'
    ? { start: n.offset, end: n.offset + 1 }
    : { start: n.offset, end: n.offset + n.length };
}

/** The key of the property holding `value`. */
function keyRange(value: JsonNode): { start: number; end: number } | undefined {
  const key = value.parent?.type === 'property' ? value.parent.children?.[0] : undefined;
  return key ? { start: key.offset, end: key.offset + key.length } : undefined;
}

/** The findings as diagnostics (information, and a warning for a `display-task-group` that is not a list). */
export function grafanaDiagnostics(model: TemplateModel): TemplateDiagnostic[] {
  const out: TemplateDiagnostic[] = [];
  for (const v of grafanaView(model))
    for (const f of v.findings) out.push(diag(f.code, f.severity, f.message, f.start, f.end));
  return out;
}

/** The lens over a task: what the Grafana agent draws for it. */
export function grafanaLensTitle(v: GrafanaTaskView): string {
  switch (v.verdict) {
    case 'grid':
      return `Grafana: grid "${v.displayName}" on ${v.dashboards.join(', ')}`;
    case 'empty-grid':
      return `Grafana: empty grid (${v.why})`;
    default:
      return `Grafana: no grid (${v.why})`;
  }
}
