// The keys of a task's `reference` that perfSONAR 5's Grafana side reads, for completion and hover. pScheduler
// archives the task's `reference` with every result (perfsonar/logstash 02-pscheduler_common.conf keeps
// `reference.*` as it is), and Grafana queries it:
// - display-task-name, display-task-group: perfsonar/psconfig psconfig/perfsonar-psconfig/psconfig/grafana/agent.py
//   (PSCONFIG_KEY_DISPLAY_TASK_NAME/GROUP, lines 21-22, 271-292) and templates/grafana.json.j2 (the grid's query);
// - display-set-source, display-set-dest: perfsonar/grafana dashboards/toolkit/perfsonar-endpoint-pair-explorer.json
//   and perfsonar/docs psconfig_grafana_agent.rst, "Graphing Multiple Interfaces".

export interface ReferenceKey {
  key: string;
  /** What the value is, for the completion detail. */
  takes: string;
  /** Markdown: what reads it and what it does. */
  documentation: string;
  /** The value written when the key is completed: plain JSON text, and a snippet. `{task}` is the task's name. */
  value: { plain: string; snippet: string };
}

const DISPLAY_SET_NOTE =
  'The Endpoint Pair Explorer dashboard (perfsonar/grafana) matches a pair by `meta.source.hostname` / ' +
  '`meta.destination.hostname` *or* by this key, so several interfaces of one host show as one. The usual value is ' +
  'a jq variable reading `_meta."display-set"` of the address (give the addresses of one host the same `display-set`).';

export const GRAFANA_REFERENCE_KEYS: ReferenceKey[] = [
  {
    key: 'display-task-name',
    takes: 'string · the Grafana grid of this task',
    documentation:
      "The name perfSONAR 5's Grafana agent gives this task's grid, **and the name it finds the results by**: the " +
      'grid queries `reference.display-task-name.keyword` in the archive. Without it the grid is drawn but stays ' +
      'empty; two tasks with the same name share one set of results. Keep it the same for every combination ' +
      '(the agent expands it for the first one only).',
    value: { plain: '"{task}"', snippet: '"${1:{task}}"' },
  },
  {
    key: 'display-task-group',
    takes: 'list of strings · Grafana dashboards',
    documentation:
      'The Grafana dashboards (besides "All perfSONAR Measurements") on which the agent puts this task\'s grid, one ' +
      'dashboard per name. **Must be a list**: the agent ignores a plain string.',
    value: { plain: '[""]', snippet: '["${1:dashboard}"]' },
  },
  {
    key: 'display-set-source',
    takes: 'string · the source host in the Endpoint Pair Explorer',
    documentation: DISPLAY_SET_NOTE,
    value: {
      plain: '"{% jq .addresses[0]._meta.\\"display-set\\" %}"',
      snippet: '"{% jq .addresses[0]._meta.\\\\"display-set\\\\" %}"',
    },
  },
  {
    key: 'display-set-dest',
    takes: 'string · the destination host in the Endpoint Pair Explorer',
    documentation: DISPLAY_SET_NOTE,
    value: {
      plain: '"{% jq .addresses[1]._meta.\\"display-set\\" %}"',
      snippet: '"{% jq .addresses[1]._meta.\\\\"display-set\\\\" %}"',
    },
  },
];

export function referenceKey(key: string): ReferenceKey | undefined {
  return GRAFANA_REFERENCE_KEYS.find((k) => k.key === key);
}
