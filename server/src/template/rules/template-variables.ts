// Template variables `{% … %}`: names, spacing, indexes against the groups of the tasks that use them,
// standalone `localhost`, and variables in places pSConfig never expands.
import type { TemplateModel } from '../model';
import type { ParsedTemplate, Tree } from '../parse';
import { NODE } from '../tree';
import type { Section } from '../symbols';
import { scanString, type TemplateVariable } from '../variables';
import {
  indexLimits,
  INDEXED_VARIABLES,
  KNOWN_SPELLINGS,
  MAX_COMBINATION_SIZE,
  placeInTree,
  type ExpandedOwner,
  type ExpandedSection,
  type Place,
} from '../variable-table';
import { closestName } from './closest-name';

const { COMMENT, PROPERTY, STRING } = NODE;
import { diag, type TemplateDiagnostic } from './diagnostic';

export function checkTemplateVariables(model: TemplateModel): TemplateDiagnostic[] {
  const out: TemplateDiagnostic[] = [];
  const { text } = model.parsed;
  for (const { place, owner, section, variables } of stringsWithVariables(model.parsed)) {
    if (owner) for (const v of variables) checkExpanded(v, owner, model, out);
    else if (place === 'literal') literal(variables, section!, text, out);
  }
  return out;
}

/** A string value holding `{%` (its tree index), where it sits, and the variables in it. */
export interface StringWithVariables {
  index: number;
  /** Whether pSConfig expands the string (placeOf, variable-table.ts). */
  place: Place;
  /** The expanded object it belongs to (one object per owner, shared by its strings). */
  owner: ExpandedOwner | undefined;
  /** The top-level section it sits in. */
  section: Section | undefined;
  variables: TemplateVariable[];
}

/** String values (not keys, not under `#` comments) containing `{%`, found from the text rather than by walking
 *  the whole tree: the cost follows the number of variables, not the size of the template. Scanned once per parse
 *  for every rule that reads them. Holds no paths: these records live as long as the analysis, and on a large
 *  template thousands of path arrays were a tenth of what the collector had to copy. */
export function stringsWithVariables(parsed: ParsedTemplate): StringWithVariables[] {
  const cached = CACHE.get(parsed);
  if (cached) return cached;
  const out: StringWithVariables[] = [];
  const { text, tree: t } = parsed;
  const owners = new Map<number, ExpandedOwner>(); // one per member property
  let last = -1;
  for (let i = text.indexOf('{%'); i >= 0; i = text.indexOf('{%', i + 2)) {
    const n = t.at(i);
    if (n < 0 || n === last || t.type(n) !== STRING) continue;
    last = n;
    const parent = t.parent[n];
    if (parent >= 0 && t.type(parent) === PROPERTY && parent + 1 === n) continue; // a key
    if (underComment(t, n)) continue;
    const { place, member } = placeInTree(t, n);
    // the section's key: the member property's parent is the section object, whose parent is its property
    const section = member >= 0 ? (t.str(t.parent[t.parent[member]] + 1) as Section) : undefined;
    let owner: ExpandedOwner | undefined;
    if (place === 'expanded') {
      owner = owners.get(member);
      if (!owner) owners.set(member, (owner = { section: section as ExpandedSection, name: t.str(member + 1) }));
    }
    out.push({ index: n, place, owner, section, variables: scanString(text, t.start[n], t.end[n]) });
  }
  CACHE.set(parsed, out);
  return out;
}
const CACHE = new WeakMap<ParsedTemplate, StringWithVariables[]>();

function underComment(t: Tree, i: number): boolean {
  for (let n = i; n >= 0; n = t.parent[n]) if (t.kind[n] & COMMENT) return true;
  return false;
}

function literal(variables: TemplateVariable[], section: Section, text: string, out: TemplateDiagnostic[]): void {
  for (const v of variables) {
    const where = section === 'tasks' ? 'task fields other than `reference`' : section;
    out.push(
      diag(
        'psconfig/variable-not-expanded',
        'warning',
        `pSConfig does not expand template variables in ${where}: \`${raw(text, v)}\` stays literal text. Variables work in tests, archives, contexts and a task's \`reference\`.`,
        v.start,
        v.end,
      ),
    );
  }
}

function checkExpanded(
  v: TemplateVariable,
  owner: ExpandedOwner,
  model: TemplateModel,
  out: TemplateDiagnostic[],
): void {
  const text = model.parsed.text;
  if (v.malformed) {
    out.push(
      diag(
        'psconfig/variable-missing-space',
        'warning',
        `\`${raw(text, v)}\` is not a template variable: pSConfig needs whitespace after \`{%\` and before \`%}\` and leaves this text as is. Write \`{% ${v.text} %}\`.`,
        v.start,
        v.end,
      ),
    );
    return;
  }
  if (v.kind === 'unknown') {
    out.push(diag('psconfig/unknown-variable', 'error', unknownMessage(v.text), v.nameStart, v.nameEnd));
    return;
  }
  if (v.kind === 'localhost' && v.standalone) {
    out.push(
      diag(
        'psconfig/standalone-localhost',
        'error',
        'A string that is only `{% localhost %}` becomes the bare word `localhost` in pSConfig 5.x, not JSON: the agent skips the task ("Unable to create valid JSON after expanding template") unless it is flipped. Embed it in text (`"https://{% localhost %}/…"`) or use `{% scheduled_by_address %}`.',
        v.start,
        v.end,
      ),
    );
  }
  if (v.index !== undefined && INDEXED_VARIABLES.includes(v.kind)) checkIndex(v, owner, model, out);
}

/** The index against the groups of the tasks that expand the object (variable-table.ts decides, for completion too). */
function checkIndex(v: TemplateVariable, owner: ExpandedOwner, model: TemplateModel, out: TemplateDiagnostic[]): void {
  const { tasks: bad, beyondAnyGroup } = indexLimits(model, owner, v.index!);
  const shown = `{% ${v.text} %}`;
  if (bad.length) {
    const [b] = bad;
    const where =
      owner.section === 'tasks'
        ? `the \`reference\` of task \`${b.task.name}\``
        : `${owner.section.slice(0, -1)} \`${owner.name}\`, used by task \`${b.task.name}\`,`;
    const yields = b.size === 1 ? 'one address per task (only index 0)' : 'two addresses per task (indexes 0 and 1)';
    const more = bad.length > 1 ? ` ${bad.length - 1} more task(s) have the same problem.` : '';
    out.push(
      diag(
        'psconfig/variable-index',
        'error',
        `\`${shown}\` in ${where} is out of range: group \`${b.group}\` is a ${b.type} group, which yields ${yields}. pSConfig cannot expand it and skips every task of this kind.${more}`,
        v.start,
        v.end,
      ),
    );
  } else if (beyondAnyGroup) {
    out.push(
      diag(
        'psconfig/variable-index',
        'error',
        `\`${shown}\` is out of range: no group yields more than ${MAX_COMBINATION_SIZE === 2 ? 'two' : MAX_COMBINATION_SIZE} addresses per task (indexes 0 and 1).`,
        v.start,
        v.end,
      ),
    );
  }
}

function unknownMessage(name: string): string {
  if (/^(address|pscheduler_address|lead_bind_address)$/.test(name))
    return `\`${name}\` needs an index: write \`${name}[0]\` or \`${name}[1]\`.`;
  const base = /^(address|pscheduler_address|lead_bind_address)\[/.exec(name);
  if (base) return `\`${name}\` needs a decimal index in brackets, e.g. \`${base[1]}[0]\`.`;
  if (/^jq(\s|$)/.test(name))
    return '`jq` needs exactly one space and then a jq script, e.g. `{% jq .addresses[0]._meta."display-name" %}`.';
  const closest = closestName(name, KNOWN_SPELLINGS);
  return `Unknown template variable \`${name}\`${closest ? `; did you mean \`${closest}\`?` : '.'} Known: address[N], pscheduler_address[N], lead_bind_address[N], scheduled_by_address, flip, localhost, jq <script>.`;
}

function raw(text: string, v: TemplateVariable): string {
  return text.slice(v.start, v.end);
}
