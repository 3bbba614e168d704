// What perfSONAR 5's Grafana agent does with each task of a template: draws its grid, draws a grid that stays
// empty, or skips it, and why. Read from perfsonar/psconfig @ 3ba99274, psconfig/perfsonar-psconfig/psconfig/
// grafana/agent.py (`_run_handle_psconfig`, lines 180-377; `_select_gf_datasource`, 640-689), the grid template
// templates/grafana.json.j2 and the shipped configuration etc/grafana-agent.json. Per task, in the agent's order:
//   1. a disabled task is skipped (line 207);
//   2. a display must match the task's test type (lines 238-258, "No display config for task … Skipping."); the
//      shipped displays cover latencybg, latency, rtt, throughput, trace, dns and http;
//   3. the group must have two dimensions: mesh or disjoint, not list (lines 283-285);
//   4. with the shipped `datasource_selector: auto`, one of the task's archives must name the datasource: `_meta`
//      with `grafana-datasource-url`, or `data._url` ending in `/logstash` (lines 646-661; line 656 calls the setter
//      `archive.archiver("http")`, which is always true, so the archiver itself is never checked), else "Unable to
//      find a suitable archive" and no grid. The archives are the task's, its scheduler's host's, then the Grafana
//      host's archives.d (which a template cannot show, and where a 5.x archive puts http_logstash.json): a template
//      that names no archive leaves the datasource to archives.d; one that names only others is noted;
//   5. the grid's query is `reference.display-task-name.keyword: "<name>"` (grafana.json.j2): the name falls back to
//      the task name for the title (lines 289-292), but results carry only the task's own `reference`, so without
//      `display-task-name` nothing matches and the grid is empty; two tasks with one display name share their data;
//   6. dashboards: "All perfSONAR Measurements" (task-group-default) plus `reference.display-task-group`, read only
//      when it is a list (lines 271-274).
// Order of the findings: the certain ones first (no display, a list group: no grid; no display-task-name: an empty
// grid), then the datasource; at most one of these per task. Simplification: the agent reads the archives of the
// task's first combination (its scheduler's host); here any host of the group's named addresses counts.
import type { TemplateModel, TaskInfo } from '../model';
import { members, propertyValue, stringValue, type JsonNode } from '../parse';
import { sectionNode } from '../symbols';
import type { DiagnosticCode } from '../rules/codes';
import { diag, type TemplateDiagnostic } from '../rules/diagnostic';

/** The shipped displays' test types (etc/grafana-agent.json `displays.*.task_selector.test_types`). */
export const DISPLAYED_TEST_TYPES = ['latencybg', 'latency', 'rtt', 'throughput', 'trace', 'dns', 'http'];
/** The shipped `task-group-default`: every drawn task's grid is on this dashboard. */
export const DEFAULT_DASHBOARD = 'All perfSONAR Measurements';

/** grid-if-archives-d: the template names archives for the task, none of which can be the datasource; the grid is
 *  drawn only if the Grafana host's archives.d (or its grafana-agent.json) supplies one. */
export type GrafanaVerdict = 'grid' | 'grid-if-archives-d' | 'empty-grid' | 'no-grid' | 'disabled';

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
  // Name → value maps of the sections (members() reads each object once): lookups stay linear on big templates.
  const section = (name: 'archives' | 'addresses' | 'hosts' | 'tests'): ((key: string) => JsonNode | undefined) => {
    const m = members(sectionNode(root, name));
    return (key) => m.get(key)?.children?.[1];
  };
  const archive = section('archives');
  const address = section('addresses');
  const host = section('hosts');
  const test = section('tests');
  const datasourceArchive = new Map<string, boolean>();
  const isDatasource = (name: string): boolean => {
    let v = datasourceArchive.get(name);
    if (v === undefined) datasourceArchive.set(name, (v = namesDatasource(archive(name))));
    return v;
  };
  // Per group: archives the hosts of its addresses bring, and whether one is a datasource.
  const groupArchives = new Map<string, { any: boolean; datasource: boolean }>();
  const viaHosts = (group: string): { any: boolean; datasource: boolean } => {
    let v = groupArchives.get(group);
    if (v) return v;
    v = { any: false, datasource: false };
    for (const a of model.groups.get(group)?.addressNames ?? []) {
      const hostName = stringValue(propertyValue(address(a), 'host'));
      const list = hostName === undefined ? undefined : propertyValue(host(hostName), 'archives');
      for (const n of list?.type === 'array' ? (list.children ?? []) : []) {
        if (n.type !== 'string') continue;
        v.any = true;
        if (isDatasource(String(n.value))) v.datasource = true;
      }
      if (v.datasource) break;
    }
    groupArchives.set(group, v);
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
    const testType = task.test === undefined ? undefined : stringValue(propertyValue(test(task.test), 'type'));
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
    // The datasource: the first archive of the task, its host's, then the Grafana host's archives.d that can be one.
    // A template naming no archive leaves it all to archives.d (usual on 5.x: nothing to say); one that names only
    // archives Grafana cannot read (4.x esmond MAs, typically) draws a grid only thanks to archives.d.
    const hosts = viaHosts(group.name);
    if (!task.archives.some(isDatasource) && !hosts.datasource && (task.archives.length > 0 || hosts.any)) {
      view.verdict = 'grid-if-archives-d';
      view.why = "a logstash archive from the Grafana host's archives.d";
      view.findings.push({
        code: 'psconfig/grafana-no-logstash',
        severity: 'information',
        message:
          "Grafana: none of this task's archives can be perfSONAR 5's Grafana datasource (an archive whose data `_url` ends in `/logstash`, or whose `_meta` has `grafana-datasource-url`). The Grafana agent draws the grid only if its host's archives.d adds such an archive (a perfSONAR 5 archive's http_logstash.json does) or its grafana-agent.json names a datasource; otherwise it skips it (\"Unable to find a suitable archive\").",
        ...at,
      });
    }
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
    if (!v.displayName || v.displayName.includes('{%')) continue;
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
    case 'grid-if-archives-d':
      return `Grafana: grid "${v.displayName}" only with ${v.why}`;
    case 'empty-grid':
      return `Grafana: empty grid (${v.why})`;
    default:
      return `Grafana: no grid (${v.why})`;
  }
}

/** The lens's verdict and the findings' messages, one text (what the Grafana lens shows when run). */
export function grafanaExplanation(model: TemplateModel, task: string): string | undefined {
  const v = grafanaView(model).find((x) => x.task === task);
  if (!v) return undefined;
  return [`${task}: ${grafanaLensTitle(v)}`, ...v.findings.map((f) => f.message.replace(/^Grafana: /, ''))].join(' ');
}
