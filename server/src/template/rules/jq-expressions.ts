// jq that does not compile, checked with jq itself (async, so the server can publish the fast diagnostics first):
// `{% jq … %}` variables where pSConfig expands them, address-class `jq` filters and archive `transform` scripts.
import { checkJqCompiles, getDefaultJqRunner, refusedJqFeature, type JqRunner } from '../jq';
import type { TemplateModel } from '../model';
import { itemsOf, members, propertyValue, type JsonNode } from '../parse';
import { sectionNode } from '../symbols';
import { diag, type TemplateDiagnostic } from './diagnostic';
import { stringsWithVariables } from './template-variables';

export interface JqSite {
  expression: string;
  start: number;
  end: number;
  what: string;
}

/** Every jq program in the template, with the range to mark if it does not compile. */
export function collectJqSites(model: TemplateModel): JqSite[] {
  const { root } = model.parsed;
  const sites: JqSite[] = [];
  for (const { place, variables } of stringsWithVariables(model.parsed)) {
    if (place !== 'expanded') continue;
    for (const v of variables) {
      if (v.kind === 'jq' && !v.malformed && v.expression !== undefined)
        sites.push({ expression: v.expression, start: v.exprStart!, end: v.exprEnd!, what: 'jq template variable' });
    }
  }
  for (const [, p] of members(sectionNode(root, 'archives'))) {
    const archive = p.children![1];
    script(propertyValue(propertyValue(archive, 'transform'), 'script'), 'archive transform', sites);
    // pscheduler-archiver-rabbitmq/rabbitmq/data-is-valid compiles a non-string routing-key with JQFilter
    if (propertyValue(archive, 'archiver')?.value === 'rabbitmq')
      script(
        propertyValue(propertyValue(propertyValue(archive, 'data'), 'routing-key'), 'script'),
        'rabbitmq routing-key transform',
        sites,
      );
  }
  for (const [, p] of members(sectionNode(root, 'address-classes'))) {
    for (const f of ['match-filter', 'exclude-filter']) filterScripts(propertyValue(p.children![1], f), sites);
  }
  return sites;
}

function filterScripts(filter: JsonNode | undefined, sites: JqSite[]): void {
  if (filter?.type !== 'object') return;
  script(propertyValue(propertyValue(filter, 'jq'), 'script'), 'address-class jq filter', sites);
  for (const f of itemsOf(propertyValue(filter, 'filters'))) filterScripts(f, sites);
  filterScripts(propertyValue(filter, 'filter'), sites);
}

/** A `script` is a string or an array of lines (joined with newlines, as pSConfig does). */
function script(node: JsonNode | undefined, what: string, sites: JqSite[]): void {
  if (node?.type === 'string')
    sites.push({ expression: node.value as string, start: node.offset + 1, end: node.offset + node.length - 1, what });
  else if (node?.type === 'array') {
    const lines = itemsOf(node);
    if (lines.length && lines.every((l) => l.type === 'string')) {
      sites.push({
        expression: lines.map((l) => l.value as string).join('\n'),
        start: node.offset,
        end: node.offset + node.length,
        what,
      });
    }
  }
}

/**
 * jq compile errors for the template's jq programs, and programs using refused module words (no process needed).
 * Never rejects; without a jq binary (or in a restricted workspace) it adds one note saying why nothing was checked.
 */
export async function checkJqExpressions(
  model: TemplateModel,
  runner: JqRunner = getDefaultJqRunner(),
): Promise<TemplateDiagnostic[]> {
  const sites = collectJqSites(model);
  if (sites.length === 0) return [];
  const out: TemplateDiagnostic[] = [];
  const checkable: JqSite[] = [];
  for (const s of sites) {
    const refused = refusedJqFeature(s.expression);
    if (refused)
      out.push(diag('psconfig/jq-not-allowed', 'error', `This ${s.what} cannot be used: ${refused}.`, s.start, s.end));
    else checkable.push(s);
  }
  if (checkable.length === 0) return out;
  const unchecked = (why: string): TemplateDiagnostic[] => [
    ...out,
    diag(
      'psconfig/jq-unavailable',
      'information',
      `jq expressions were not checked: ${why}.`,
      checkable[0].start,
      checkable[0].end,
    ),
  ];
  if (runner.unavailable || !runner.binary) return unchecked(runner.unavailable ?? 'no jq binary');
  let results: Map<string, string | null>;
  try {
    results = await checkJqCompiles(
      checkable.map((s) => s.expression),
      runner,
    );
  } catch (e) {
    return unchecked((e as Error).message);
  }
  for (const s of checkable) {
    const err = results.get(s.expression);
    if (err)
      out.push(diag('psconfig/jq-compile', 'error', `This ${s.what} does not compile: ${tidy(err)}`, s.start, s.end));
  }
  return out;
}

/** jq's first error line without its prefix and the position inside our compile-check wrapper program. */
function tidy(err: string): string {
  const first = err.split('\n').find((l) => l.trim()) ?? err;
  return first
    .replace(/^jq: error(?: \(at [^)]*\))?: /, '')
    .replace(/ \(Unix shell quoting issues\?\)/, '')
    .replace(/ at <top-level>, line \d+:?$/, '')
    .trim();
}
