// Meaning beyond the schema: scheduled-by range, legacy archivers, labels no member has, subtasks that have no
// effect in the pSConfig 5.x agent. (Includes: rules/includes.ts.)
import type { TemplateModel } from '../model';
import { keyOf, members, propertyValue, stringValue } from '../parse';
import { sectionNode } from '../symbols';
import { diag, type TemplateDiagnostic } from './diagnostic';
import { noun } from '../../../../common/text';

export function checkSemantics(model: TemplateModel): TemplateDiagnostic[] {
  const out: TemplateDiagnostic[] = [];
  scheduledBy(model, out);
  archivers(model, out);
  defaultLabels(model, out);
  subtasks(model, out);
  return out;
}

function scheduledBy(model: TemplateModel, out: TemplateDiagnostic[]): void {
  const { tree } = model.parsed;
  for (const t of model.tasks) {
    const i = tree.propertyValue(t.index, 'scheduled-by'); // by index: a view only for a task that has one
    const sb = i >= 0 ? tree.node(i) : undefined;
    if (sb?.type !== 'number' || typeof sb.value !== 'number' || sb.value < 0) continue;
    const g = t.group !== undefined ? model.groups.get(t.group) : undefined;
    if (!g?.size || sb.value < g.size) continue;
    const valid = g.size === 1 ? '0' : '0 or 1';
    out.push(
      diag(
        'psconfig/scheduled-by-range',
        'error',
        `Task \`${t.name}\` has \`scheduled-by: ${sb.value}\`, but its group \`${g.name}\` is a ${g.type} group with ${g.size} ${noun(g.size, 'address', 'addresses')} per task (valid: ${valid}). pSConfig stops generating this task ("The scheduled-by property for task ${t.name} is too big").`,
        sb.offset,
        sb.offset + sb.length,
      ),
    );
  }
}

function archivers(model: TemplateModel, out: TemplateDiagnostic[]): void {
  for (const [name, prop] of members(sectionNode(model.parsed.root, 'archives'))) {
    const a = propertyValue(prop.children![1], 'archiver');
    if (stringValue(a) !== 'esmond') continue;
    out.push(
      diag(
        'psconfig/esmond-archiver',
        'warning',
        `Archive \`${name}\` uses the \`esmond\` archiver, which pScheduler 5.x no longer has: 5.x hosts reject its tasks ("Unknown archiver plugin 'esmond'"). Switch to the logstash \`http\` archive perfSONAR 5 installs (a quick fix, or \`psconfig-tools fix\`, converts it) unless every host runs 4.x.`,
        a!.offset,
        a!.offset + a!.length,
        { tags: ['deprecated'] },
      ),
    );
  }
}

/** default-address-label: members without that label (and no remote entry providing it) produce no tasks. */
function defaultLabels(model: TemplateModel, out: TemplateDiagnostic[]): void {
  const { index } = model;
  const { tree } = model.parsed;
  for (const g of model.groups.values()) {
    const i = tree.propertyValue(g.index, 'default-address-label');
    const node = i >= 0 ? tree.node(i) : undefined;
    const label = stringValue(node);
    if (label === undefined || g.hasClassSelectors || g.addressNames.size === 0) continue;
    const has = [...g.addressNames].some((a) => index.isDefined('labels', label, a));
    if (has) continue;
    out.push(
      diag(
        'psconfig/default-label-unused',
        'warning',
        `No address selected by group \`${g.name}\` has a label \`${label}\`, so the group yields no tasks: pSConfig skips members without the default label. Add \`labels.${label}\` to its addresses or fix the name.`,
        node!.offset + 1,
        node!.offset + node!.length - 1,
      ),
    );
  }
}

function subtasks(model: TemplateModel, out: TemplateDiagnostic[]): void {
  const sec = propertyValue(model.parsed.root, 'subtasks');
  const key = sec?.parent ? keyOf(sec.parent) : undefined;
  if (!key || members(sec).size === 0) return;
  out.push(
    diag(
      'psconfig/subtasks-no-effect',
      'information',
      'Subtasks are validated but never generated: the pSConfig 5.x agent creates no pScheduler tasks from them.',
      key.offset,
      key.offset + key.length,
    ),
  );
}
