// A test spec, archiver data or context data checked the way pScheduler's plug-in program checks it: pick the
// schema version exactly as the program does, apply that version's schema, then the program's own rules.
import { parseTemplate } from '../parse';
import { memberValue, type NodeLike } from './nodes';
import { closestName } from '../rules/closest-name';
import { acceptedVersions, plugin as pluginData, pluginNames, type PluginData, type PluginKind } from './catalog';
import { describeValue } from './describe';
import { flipNeedsSource, netreachNetwork, singleEndedLoopback, urlHttpScheme, type RuleInput } from './rules';
import { SchemaChecker, type CheckOptions, type Problem } from './validate';

export interface ValueCheckOptions extends CheckOptions {
  /** Python's view of a number token: an int literal (no `.`/exponent)? Default: Number.isInteger. */
  isIntLiteral?: (node: NodeLike) => boolean;
}

export interface ValueCheck {
  plugin: PluginData;
  /** The schema version applied (undefined when none could be chosen). */
  version?: number;
  problems: Problem[];
}

const KIND_WORD: Record<PluginKind, string> = { test: 'spec', archiver: 'data', context: 'data' };

/** "the latency spec", "the http archiver's data", "the linuxnns context's data" */
export function valueName(p: PluginData): string {
  return p.kind === 'test' ? `the ${p.name} spec` : `the ${p.name} ${p.kind}'s data`;
}

export function unknownPluginMessage(kind: PluginKind, name: string): { message: string; closest?: string } {
  const names = pluginNames(kind);
  const closest = closestName(name, names);
  const what = kind === 'test' ? 'test type' : kind;
  return {
    message: `pScheduler has no ${what} \`${name}\`${closest ? `; did you mean \`${closest}\`?` : '.'} Known: ${names.join(', ')}.`,
    closest,
  };
}

/** Check the value of a plug-in (spec or data). */
export function checkPluginValue(p: PluginData, node: NodeLike, opts: ValueCheckOptions = {}): ValueCheck {
  const isInt = opts.isIntLiteral ?? defaultIsInt;
  const problems: Problem[] = [];
  if (node.type === 'string' && (node.value as string).includes('{%') && opts.expansion) {
    const e = opts.expansion(node, false);
    if (e?.kind === 'unknown') return { plugin: p, problems };
  }
  if (node.type !== 'object')
    return refuse(p, node, [], `${capital(valueName(p))} must be an object, not ${describeNode(node)}.`);

  // Which version (the program's own selection: catalog.ts Selection)
  const schemaNode = memberValue(node, 'schema');
  let version = 1;
  let isInteger = true;
  // A Python bool is an int: it passes max-schema checks (true as 1) but names no version ("vTrue").
  let isBool = false;
  if (schemaNode) {
    if (schemaNode.type === 'string' && (schemaNode.value as string).includes('{%') && opts.expansion) {
      return { plugin: p, problems }; // a variable: nothing to say before it is expanded
    }
    isInteger = schemaNode.type === 'number' && isInt(schemaNode);
    isBool = schemaNode.type === 'boolean';
    if (isInteger) version = schemaNode.value as number;
    if (isBool) version = schemaNode.value ? 1 : 0;
  }
  if (p.select === 'ref') {
    if (!isInteger || !p.versions[String(version)] || (p.maxSchema !== null && version > p.maxSchema))
      return badSchema(p, node, schemaNode);
  } else if (p.select === 'template') {
    if (isBool) return badSchema(p, node, schemaNode);
    if (!isInteger) {
      if (p.maxSchema !== null) return badSchema(p, node, schemaNode);
      problems.push({
        kind: 'not-validated',
        node: schemaNode!,
        path: ['schema'],
        severity: 'warning',
        message: `pScheduler does not check ${valueName(p)} at all when \`schema\` is not an integer (its validator answers the string "False", which the server takes as valid). Write an integer (${versionRange(p)}).`,
      });
      return { plugin: p, problems };
    }
    if (!p.versions[String(version)]) return badSchema(p, node, schemaNode);
  } else if (p.maxSchema !== null && ((!isInteger && !isBool) || version > p.maxSchema))
    return badSchema(p, node, schemaNode);

  const applied = p.select === 'single' ? '1' : String(version);
  const checker = checkerFor(p, opts);
  const found: Problem[] = [];
  const schemaOk = checker.run(p.versions[applied], node, found);
  for (const f of found) problems.push(explainVersion(p, f, p.select === 'single' ? undefined : version));

  if (p.rules) runRules(p, { node, schemaOk, expansion: opts.expansion, isIntLiteral: isInt }, problems);
  return { plugin: p, version: p.select === 'single' ? undefined : version, problems };
}

/** One checker per plug-in and options object (the options are one object per template analysis). */
const checkers = new WeakMap<ValueCheckOptions, Map<PluginData, SchemaChecker>>();
function checkerFor(p: PluginData, opts: ValueCheckOptions): SchemaChecker {
  let byPlugin = checkers.get(opts);
  if (!byPlugin) checkers.set(opts, (byPlugin = new Map<PluginData, SchemaChecker>()));
  let c = byPlugin.get(p);
  if (!c) byPlugin.set(p, (c = new SchemaChecker(p, opts, valueName(p))));
  return c;
}

const defaultIsInt = (n: NodeLike): boolean => n.type === 'number' && Number.isInteger(n.value);

function refuse(p: PluginData, at: NodeLike, path: (string | number)[], message: string): ValueCheck {
  return { plugin: p, problems: [{ kind: 'invalid-value', node: at, path, message, severity: 'error' }] };
}

function versionRange(p: PluginData): string {
  const versions = acceptedVersions(p);
  return versions.length > 1 ? `${versions[0]} to ${versions[versions.length - 1]}` : `${versions[0]}`;
}

function badSchema(p: PluginData, node: NodeLike, schemaNode: NodeLike | undefined): ValueCheck {
  return refuse(
    p,
    schemaNode ?? node,
    ['schema'],
    `\`schema\` must be an integer naming a ${p.name} ${p.kind === 'test' ? 'spec' : 'data'} version pScheduler knows (${versionRange(p)}), not ${schemaNode ? describeNode(schemaNode) : 'nothing'}.`,
  );
}

function runRules(p: PluginData, input: RuleInput, problems: Problem[]): void {
  for (const r of p.rules ?? []) {
    switch (r) {
      case 'flip-needs-source':
        problems.push(...flipNeedsSource(input));
        break;
      case 'single-ended-loopback':
        problems.push(...singleEndedLoopback(input));
        break;
      case 'url-http-scheme':
        problems.push(...urlHttpScheme(input));
        break;
      case 'netreach-network': {
        const n = netreachNetwork(input);
        if (n.schemaIgnored)
          for (const q of problems) {
            q.severity = 'warning';
            q.message +=
              ' (pScheduler lets this pass because `gateway` is set: netreach then only checks network and gateway.)';
          }
        problems.push(...n.problems);
        break;
      }
      case 'routing-key-jq':
        break; // compiled with jq by rules/jq-expressions.ts (asynchronous)
    }
  }
}

/** An unknown key that another version of the plug-in has: say which version brings it. */
function explainVersion(p: PluginData, q: Problem, version: number | undefined): Problem {
  if (q.kind !== 'unknown-property' || q.path.length !== 1 || version === undefined) {
    if (q.kind === 'unknown-property' && q.path[q.path.length - 1] === '_meta')
      q.message += ` pSConfig removes \`_meta\` only next to \`${p.kind === 'test' ? 'type' : p.kind}\`, not inside \`${KIND_WORD[p.kind]}\`: pScheduler receives it and refuses it. Move it up one level.`;
    return q;
  }
  const key = String(q.path[0]);
  const having = versionsHaving(p, key);
  if (key === '_meta')
    q.message += ` pSConfig removes \`_meta\` only next to \`${p.kind === 'test' ? 'type' : p.kind}\`, not inside \`${KIND_WORD[p.kind]}\`: pScheduler receives it and refuses it. Move it up one level.`;
  if (!having.length) return q;
  const later = having.filter((v) => v > version);
  if (later.length) {
    return {
      ...q,
      kind: 'needs-schema',
      version: later[0],
      message: `\`${key}\` needs ${p.name} schema ${later[0]} or later (this ${KIND_WORD[p.kind]} is schema ${version}${version === 1 ? ', the default' : ''}): add \`"schema": ${later[0]}\`.`,
    };
  }
  return {
    ...q,
    message: `${q.message} \`${key}\` exists only in ${p.name} schema ${having.join(', ')}, not in schema ${version}.`,
  };
}

/** The versions of a plug-in whose top level declares the key, ascending (memoised: the data never changes). */
export function versionsHaving(p: PluginData, key: string): number[] {
  let byKey = having.get(p);
  if (!byKey) having.set(p, (byKey = new Map<string, number[]>()));
  let list = byKey.get(key);
  if (!list) {
    list = Object.entries(p.versions)
      .filter(([, s]) => s.properties && Object.prototype.hasOwnProperty.call(s.properties, key))
      .map(([v]) => Number(v))
      .sort((a, b) => a - b);
    if (byKey.size < 1000) byKey.set(key, list);
  }
  return list;
}
const having = new WeakMap<PluginData, Map<string, number[]>>();

function capital(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}

function describeNode(node: NodeLike): string {
  if (node.type === 'object') return 'an object';
  if (node.type === 'array') return 'an array';
  return describeValue(node.value);
}

/** Convenience for callers holding a plug-in name. */
export function checkValue(
  kind: PluginKind,
  name: string,
  node: NodeLike,
  opts?: ValueCheckOptions,
): ValueCheck | undefined {
  const p = pluginData(kind, name);
  return p ? checkPluginValue(p, node, opts) : undefined;
}

/**
 * Check a spec or data given as JSON text (the CLI and the comparison with pScheduler's own validators use this):
 * numbers keep Python's int/float distinction from their spelling.
 */
export function checkJsonText(
  kind: PluginKind,
  name: string,
  text: string,
  opts: ValueCheckOptions = {},
): ValueCheck | undefined {
  const parsed = parseTemplate(text);
  if (!parsed.root || parsed.syntaxErrors.length) return undefined;
  const isIntLiteral = (n: NodeLike): boolean =>
    n.type === 'number' && !/[.eE]/.test(text.slice(n.offset, n.offset + n.length));
  return checkValue(kind, name, parsed.root, { isIntLiteral, ...opts });
}
