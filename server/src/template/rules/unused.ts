// Definitions nothing references (hint, tagged unnecessary). Addresses count as used when any group selects by
// class (class membership depends on filters and tags); archives count when a task, subtask or host uses them.
import type { TemplateModel } from '../model';
import type { Section } from '../symbols';
import { singular } from '../schema/describe';
import { diag, type TemplateDiagnostic } from './diagnostic';
import type { IncludeSet } from '../includes/include-set';

const CHECKED: Section[] = [
  'addresses',
  'address-classes',
  'archives',
  'contexts',
  'groups',
  'hosts',
  'schedules',
  'subtasks',
  'tests',
];

const USED_BY: Record<string, string> = {
  addresses: 'no group selects it',
  'address-classes': 'no group selector or filter uses it',
  archives: 'no task, subtask or host lists it',
  contexts: 'no address lists it',
  groups: 'no task uses it',
  hosts: 'no address names it as its `host`',
  schedules: 'no task uses it',
  subtasks: 'no task lists it',
  tests: 'no task or subtask uses it',
};

/** Objects of included files count as users; while an include is unread nothing is called unused. */
export function checkUnused(model: TemplateModel, includes?: IncludeSet): TemplateDiagnostic[] {
  const { index } = model;
  const out: TemplateDiagnostic[] = [];
  if (includes && !includes.complete) return out;
  const classSelectors = [...model.groups.values()].some((g) => g.hasClassSelectors);
  const anyTasks = model.tasks.length > 0;
  for (const d of index.definitions) {
    if (!CHECKED.includes(d.kind as Section)) continue;
    if (d.kind === 'addresses' && classSelectors) continue;
    // A fragment without tasks (an include) defines things for other templates.
    if (!anyTasks && d.kind !== 'hosts' && d.kind !== 'contexts' && d.kind !== 'addresses') continue;
    if (index.usedElsewhere(d.kind, d.name)) continue;
    if (includes?.uses(d.kind as Section, d.name)) continue;
    out.push(
      diag(
        'psconfig/unused-definition',
        'hint',
        `${cap(singular(d.kind))} \`${d.name}\` is not used: ${USED_BY[d.kind]}.`,
        d.start,
        d.end,
        {
          tags: ['unnecessary'],
          data: { kind: 'unused', section: d.kind, name: d.name },
        },
      ),
    );
  }
  return out;
}

function cap(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}
