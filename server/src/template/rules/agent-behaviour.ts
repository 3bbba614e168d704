// What the pSConfig 5.x agent does differently from what a template seems to say (psconfig.md §2.2, §3.2, §3.5,
// §3.7): fields it ignores, overrides or drops, and constructs its Python code fails on. Each note names the behaviour so the author is not surprised.
import type { TemplateModel } from '../model';
import { firstMember, itemsOf, keyOf, memberProps, propertyValue, type JsonNode } from '../parse';
import { sectionNode } from '../symbols';
import { NODE } from '../tree';
import { diag, type TemplateDiagnostic } from './diagnostic';
import { jqResultType } from './jq-result-type';
import { stringsWithVariables } from './template-variables';

const SELECTOR_LISTS = ['addresses', 'a-addresses', 'b-addresses'];

export function checkAgentBehaviour(model: TemplateModel): TemplateDiagnostic[] {
  const out: TemplateDiagnostic[] = [];
  const root = model.parsed.root;
  // Tasks and group selectors on tree indexes: a large template has thousands, nearly all without these fields.
  const tree = model.parsed.tree;
  for (const t of model.tasks) {
    const priority = tree.propertyValue(t.index, 'priority');
    if (priority >= 0 && tree.type(priority) === NODE.NUMBER && tree.scalar(priority) === 0) {
      out.push(
        diag(
          'psconfig/priority-zero',
          'information',
          'pSConfig 5.x drops a priority of 0 (it skips falsy values), so pScheduler applies its default priority. Remove it, or use another value.',
          tree.start[priority],
          tree.end[priority],
        ),
      );
    }
    const reference = tree.propertyValue(t.index, 'reference');
    // a view only for the rare reference that has the key
    const reserved =
      reference >= 0 && tree.propertyValue(reference, 'psconfig') >= 0
        ? firstMember(tree.node(reference), 'psconfig')
        : undefined;
    if (reserved) {
      out.push(
        diag(
          'psconfig/reserved-reference-key',
          'warning',
          'The agent overwrites `reference.psconfig` with its own `created-by` data: choose another key.',
          ...range(keyOf(reserved)),
        ),
      );
    }
  }
  for (const p of memberProps(sectionNode(root, 'schedules'))) {
    const until = propertyValue(p.children![1], 'until');
    if (until) {
      out.push(
        diag(
          'psconfig/schedule-until-overridden',
          'information',
          'The pScheduler agent replaces `until` with its own horizon (now + max(task-min-ttl, repeat × task-min-runs)) on every run.',
          ...range(keyOfValue(until)),
        ),
      );
    }
  }
  for (const g of model.groups.values()) {
    for (const field of SELECTOR_LISTS) {
      const list = tree.propertyValue(g.index, field);
      if (list < 0 || tree.type(list) !== NODE.ARRAY) continue;
      for (let sel = tree.firstChild(list); sel >= 0; sel = tree.nextSibling(sel, list)) {
        const cls = tree.propertyValue(sel, 'class');
        if (cls >= 0 && tree.type(cls) === NODE.STRING) {
          out.push(
            diag(
              'psconfig/class-selector-python',
              'warning',
              'pSConfig 5.x (Python) cannot use class selectors in groups: AddressClass.select() returns addresses without a `label`, and select_addresses reads `label` (KeyError), which aborts the agent run. The 4.x (Perl) agent and the docs select every address of the class. For 5.x agents, list the addresses with `name` selectors.',
              tree.start[cls],
              tree.end[cls],
            ),
          );
        }
        const disabled = tree.propertyValue(sel, 'disabled');
        if (disabled < 0 || tree.scalar(disabled) !== true) continue;
        out.push(
          diag(
            'psconfig/selector-disabled-ignored',
            'information',
            'The docs say a disabled selector is skipped, but neither the Python nor the Perl agent reads `disabled` on selectors: the address is still used. Set `disabled` on the address or its host instead.',
            ...range(keyOfValue(tree.node(disabled))),
          ),
        );
      }
    }
  }
  labelContexts(root, out);
  jqResults(model, out);
  for (const c of memberProps(sectionNode(root, 'address-classes')))
    netmaskFilters(propertyValue(c.children![1], 'match-filter'), out);
  for (const c of memberProps(sectionNode(root, 'address-classes')))
    netmaskFilters(propertyValue(c.children![1], 'exclude-filter'), out);
  return out;
}

/**
 * An address's own label with `contexts`: pSConfig 5.2.4's reference check iterates `label.context_refs` without
 * calling it (perfsonar/psconfig client/psconfig/config.py ~283-286), a TypeError that stops the check, so the agent
 * creates no task from the template (expand/agent-acceptance.ts says the same for the expansion).
 */
function labelContexts(root: JsonNode | undefined, out: TemplateDiagnostic[]): void {
  for (const a of memberProps(sectionNode(root, 'addresses'))) {
    for (const l of memberProps(propertyValue(a.children![1], 'labels'))) {
      const contexts = propertyValue(l.children![1], 'contexts');
      if (!contexts || itemsOf(contexts).length === 0) continue;
      out.push(
        diag(
          'psconfig/label-contexts-crash',
          'error',
          "pSConfig 5.2.4's agent fails on a label of an address that has `contexts` (its reference check iterates `label.context_refs` without calling it: TypeError) and creates no task from this template. Put the contexts on the address itself, or on the label of a `remote-addresses` entry, which it reads correctly.",
          ...range(keyOfValue(contexts)),
        ),
      );
    }
  }
}

/** `{% jq %}` scripts that certainly return a non-string: pSConfig 5.x builds `'"' + result + '"'` (TypeError). */
function jqResults(model: TemplateModel, out: TemplateDiagnostic[]): void {
  const types = new Map<string, ReturnType<typeof jqResultType>>(); // one reading per distinct script
  for (const { place, variables } of stringsWithVariables(model.parsed)) {
    if (place !== 'expanded') continue;
    for (const v of variables) {
      if (v.kind !== 'jq' || v.malformed || v.expression === undefined) continue;
      let type = types.get(v.expression);
      if (type === undefined && !types.has(v.expression)) types.set(v.expression, (type = jqResultType(v.expression)));
      if (type === undefined || type === 'string' || type === 'null') continue;
      const perl = v.standalone ? `keeps the ${type} as it is` : 'splices its JSON text in';
      out.push(
        diag(
          'psconfig/jq-result-not-string',
          'warning',
          `This jq script returns ${ARTICLE[type]} ${type}: pSConfig 5.x (Python) puts every jq result in quotes and fails on anything but a string (TypeError, the agent run aborts), while 4.x (Perl) ${perl}. Append \`| tostring\` if a string will do.`,
          v.exprStart!,
          v.exprEnd!,
        ),
      );
    }
  }
}
const ARTICLE: Record<string, string> = { number: 'a', boolean: 'a', object: 'an', array: 'an' };

function netmaskFilters(filter: JsonNode | undefined, out: TemplateDiagnostic[]): void {
  if (filter?.type !== 'object') return;
  const type = propertyValue(filter, 'type');
  if (type?.value === 'netmask') {
    out.push(
      diag(
        'psconfig/netmask-filter',
        'warning',
        'pSConfig 5.x’s netmask filter never matches (filters/netmask.py returns False), so this filter selects nothing on 5.x agents; the 4.x (Perl) agent honours it.',
        ...range(type),
      ),
    );
  }
  for (const f of itemsOf(propertyValue(filter, 'filters'))) netmaskFilters(f, out);
  netmaskFilters(propertyValue(filter, 'filter'), out);
}

function range(node: JsonNode): [number, number] {
  return [node.offset, node.offset + node.length];
}

/** The key token of a value's property (a short range for a long value). */
function keyOfValue(value: JsonNode): JsonNode {
  return value.parent?.type === 'property' ? keyOf(value.parent) : value;
}
