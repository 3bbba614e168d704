// Every name reference must resolve: the checks of `psconfig validate` (Config.validate_refs, same wording)
// plus the ones it misses (class selectors, excludes selectors, address-class filters, subtasks).
import type { TemplateModel } from '../model';
import { nodePath } from '../parse';
import type { Reference, SymbolIndex, SymbolKind } from '../symbols';
import { closestName } from './closest-name';
import { diag, type DiagnosticCode, type TemplateDiagnostic } from './diagnostic';
import { singular } from '../schema/describe';
import type { IncludeSet } from '../includes/include-set';

/** Nothing in a template names a task, so there is no unknown-task. */
const CODES: Record<Exclude<SymbolKind, 'tasks'>, DiagnosticCode> = {
  addresses: 'psconfig/unknown-address',
  'address-classes': 'psconfig/unknown-address-class',
  archives: 'psconfig/unknown-archive',
  contexts: 'psconfig/unknown-context',
  groups: 'psconfig/unknown-group',
  hosts: 'psconfig/unknown-host',
  schedules: 'psconfig/unknown-schedule',
  subtasks: 'psconfig/unknown-subtask',
  tests: 'psconfig/unknown-test',
  labels: 'psconfig/unknown-label',
  'remote-addresses': 'psconfig/unknown-remote-address',
};

const ARTICLE: Partial<Record<SymbolKind, string>> = {
  addresses: 'an address',
  'address-classes': 'an address class',
  archives: 'an archive',
};

/**
 * With `includes`, names resolve against the template merged with its included files. A name found nowhere while
 * some include could not be read is not reported here but pushed to `unresolved` (the include's diagnostic lists
 * it: it may come from that file).
 */
export function checkReferences(
  model: TemplateModel,
  includes?: IncludeSet,
  unresolved: Reference[] = [],
): TemplateDiagnostic[] {
  const { index } = model;
  const out: TemplateDiagnostic[] = [];
  const complete = includes?.complete ?? true;
  // Array items' positions, counted once per array for the diagnostics' paths (a long list of unknown names).
  const positions = new Map<number, number>();
  const nowhere = includes && includes.entries.length > 0 ? ' None of the included files defines it either.' : '';
  for (const r of index.references) {
    if (r.field === 'default-address-label') continue; // semantics.ts: a label no selected address has
    if (r.kind === 'labels') {
      if (r.address === undefined) continue;
      const local = index.isDefined('addresses', r.address);
      // The template's own address wins over an included one of the same name (and brings its own labels).
      let labels: string[];
      if (local) {
        if (index.isDefined('labels', r.name, r.address)) continue;
        labels = index.namesIn('labels', r.address);
      } else {
        const included = includes?.labelsOf(r.address);
        if (!included) {
          // The address name itself is reported (or listed as possibly included).
          continue;
        }
        if (included.includes(r.name)) continue;
        labels = included;
      }
      const closest = closestName(r.name, labels);
      out.push(
        diag(
          CODES.labels,
          'error',
          `${owner(r)} references a label ${r.name} for address object ${r.address} that does not exist. Add it under \`labels\` of address \`${r.address}\` (or of one of its remote-addresses entries)${hint(closest)}.`,
          r.start,
          r.end,
          {
            data: {
              kind: 'missing-ref',
              section: 'labels',
              name: r.name,
              closest,
              address: r.address,
              path: nodePath(r.node, positions),
            },
          },
        ),
      );
      continue;
    }
    if (r.kind === 'tasks' || index.isDefined(r.kind, r.name) || includes?.defines(r.kind, r.name)) continue;
    if (!complete) {
      unresolved.push(r);
      continue;
    }
    const names = includes ? [...index.namesIn(r.kind), ...includes.namesIn(r.kind)] : index.namesIn(r.kind);
    const closest = closestName(r.name, names);
    if (r.isKey) {
      out.push(
        diag(
          CODES['remote-addresses'],
          'warning',
          `Address ${r.ownerName} has a remote definition for ${r.name}, which is not an address in this template, so it never applies. Rename the entry to the address it is for${hint(closest)}.`,
          r.start,
          r.end,
          {
            data: {
              kind: 'missing-ref',
              section: 'addresses',
              name: r.name,
              closest,
              path: nodePath(r.node, positions),
            },
          },
        ),
      );
      continue;
    }
    out.push(
      diag(
        CODES[r.kind],
        'error',
        `${sentence(r)} Define it in \`${r.kind}\`${hint(closest)}.${nowhere}`,
        r.start,
        r.end,
        {
          data: { kind: 'missing-ref', section: r.kind, name: r.name, closest, path: nodePath(r.node, positions) },
        },
      ),
    );
  }
  return out;
}

function hint(closest: string | undefined): string {
  return closest ? ` (did you mean \`${closest}\`?)` : '';
}

function owner(r: Reference): string {
  const s = singular(r.ownerKind);
  return `${s[0].toUpperCase()}${s.slice(1)} ${r.ownerName}`;
}

/** pSConfig's own wording where it has one (psconfig.md §1.4). */
function sentence(r: Reference): string {
  const what = ARTICLE[r.kind] ?? `a ${singular(r.kind)}`;
  if (r.ownerKind === 'addresses' && r.field === 'contexts') {
    const path = nodePath(r.node);
    const label = path.indexOf('labels');
    const remote = path.indexOf('remote-addresses');
    if (label > 0)
      return `${owner(r)} has a label ${String(path[label + 1])} using a context object ${r.name} that does not exist.`;
    if (remote > 0)
      return `${owner(r)} has a remote definition for ${String(path[remote + 1])} using a context object ${r.name} that does not exist.`;
  }
  if (r.ownerKind === 'addresses' || r.ownerKind === 'groups' || r.ownerKind === 'hosts') {
    return `${owner(r)} references ${what} object ${r.name} that does not exist.`;
  }
  return `${owner(r)} references ${what} ${r.name} that does not exist.`;
}

/** Names a reference could point to (for completion and quick fixes). */
export function candidatesFor(index: SymbolIndex, r: Reference): string[] {
  return r.kind === 'labels' && r.address !== undefined ? index.namesIn('labels', r.address) : index.namesIn(r.kind);
}
