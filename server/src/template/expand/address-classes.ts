// Address classes: data sources (current-config, requesting-agent) and every filter type, as the Perl 4.x
// library evaluates them (perl-shared .../PSConfig/AddressClasses/). jq filters are evaluated up front in one
// batched jq run; DNS is never used (a host name's IP version or network cannot be decided offline).
import { isIP } from 'node:net';
import { JqRunner, runJqBatch } from '../jq';
import { checkJqCompiles } from '../jq/batch';
import { JsonObject, NameLabelAddress, str, strList, TemplateView, truthy, Json } from './template-view';
import { isObject, jsonText } from '../../../../common/json';

export interface ClassContext {
  view: TemplateView;
  /** Addresses of the `requesting-agent` data source (name → address JSON). */
  requestingAgent: Map<string, JsonObject>;
  /** jq filter results: script → (document → first output or error). */
  jqResults: Map<string, Map<JsonObject, { ok: true; value: Json | undefined } | { ok: false; error: string }>>;
  note(message: string): void;
}

/** The jq transform script as Perl joins it (`script` may be an array of lines). */
export function jqScript(spec: Json | undefined): string | undefined {
  if (!isObject(spec)) return undefined;
  const s = spec.script;
  if (typeof s === 'string') return s;
  if (Array.isArray(s)) return s.filter((x) => typeof x === 'string').join(' ');
  return undefined;
}

function walkFilters(f: Json | undefined, visit: (f: JsonObject) => void): void {
  if (!isObject(f)) return;
  visit(f);
  if (Array.isArray(f.filters)) for (const sub of f.filters) walkFilters(sub, visit);
  walkFilters(f.filter, visit);
}

/**
 * Runs every jq script used by `jq` filters (on address JSON) and `host` filters (on host JSON) against every
 * candidate in one jq process, so class selection afterwards is synchronous.
 */
export async function prefetchClassJq(
  view: TemplateView,
  requestingAgent: Map<string, JsonObject>,
  jq: JqRunner,
  note: (m: string) => void,
): Promise<ClassContext['jqResults']> {
  const addrScripts = new Set<string>();
  const hostScripts = new Set<string>();
  for (const cls of view.addressClasses.values()) {
    for (const key of ['match-filter', 'exclude-filter']) {
      walkFilters(cls[key], (f) => {
        const s = jqScript(f.jq);
        if (s === undefined) return;
        if (f.type === 'jq') addrScripts.add(s);
        else if (f.type === 'host') hostScripts.add(s);
      });
    }
  }
  const results: ClassContext['jqResults'] = new Map();
  if (!addrScripts.size && !hostScripts.size) return results;
  const addrDocs = [...view.addresses.values(), ...requestingAgent.values()];
  const hostDocs = [...view.hosts.values()];
  const compiles = await checkJqCompiles([...addrScripts, ...hostScripts], jq);
  const failed = (s: string): string | null => compiles.get(s) ?? null;
  const sets = [[...addrScripts].filter((s) => !failed(s)), [...hostScripts].filter((s) => !failed(s))];
  const items: [number, JsonObject][] = [
    ...addrDocs.map((d): [number, JsonObject] => [0, d]),
    ...hostDocs.map((d): [number, JsonObject] => [1, d]),
  ];
  const batch =
    sets[0].length || sets[1].length
      ? await runJqBatch(jq, { expressionSets: sets, input: JSON.stringify(items) })
      : { ok: true as const, items: [] };
  if (!batch.ok) note(`Address-class jq filters could not be evaluated (they match nothing): ${batch.error}`);
  const put = (
    script: string,
    doc: JsonObject,
    r: { ok: true; value: Json | undefined } | { ok: false; error: string },
  ): void => {
    let m = results.get(script);
    if (!m) results.set(script, (m = new Map<JsonObject, typeof r>()));
    m.set(doc, r);
  };
  items.forEach(([setIdx, doc], i) => {
    const scripts = setIdx === 0 ? addrScripts : hostScripts;
    for (const s of scripts) {
      const compileError = failed(s);
      if (compileError) {
        put(s, doc, { ok: false, error: compileError });
        continue;
      }
      const cell = batch.ok ? batch.items[i]?.[sets[setIdx].indexOf(s)] : undefined;
      if (!cell) put(s, doc, { ok: false, error: batch.ok ? 'no result' : batch.error });
      else if (cell.ok) put(s, doc, { ok: true, value: cell.values[0] as Json | undefined });
      else put(s, doc, { ok: false, error: cell.error });
    }
  });
  for (const s of [...addrScripts, ...hostScripts]) {
    const e = failed(s);
    if (e) note(`Address-class jq filter \`${s}\` does not compile, so it matches nothing: ${e}`);
  }
  return results;
}

function ipInCidr(ip: string, cidr: string): boolean | undefined {
  const [net, bitsText] = cidr.trim().split('/');
  const version = isIP(ip);
  if (!version || isIP(net) !== version) return version && isIP(net) ? false : undefined;
  const width = version === 4 ? 32 : 128;
  const bits = bitsText === undefined ? width : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > width) return undefined;
  const toBig = (a: string): bigint =>
    version === 4 ? a.split('.').reduce((acc, o) => (acc << 8n) + BigInt(Number(o)), 0n) : v6ToBig(a);
  const mask = bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << BigInt(width - bits);
  return (toBig(ip) & mask) === (toBig(net) & mask);
}

function v6ToBig(a: string): bigint {
  let s = a.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const o = v4[1].split('.').map(Number);
    s = s.slice(0, -v4[1].length) + `${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) + BigInt(parseInt(g || '0', 16)), 0n);
}

function tagMatch(tags: string[], tag: string): boolean {
  const t = tag.toLowerCase();
  return tags.some((x) => x.toLowerCase() === t);
}

/** One filter on one address (perl-shared .../AddressClasses/Filters/*.pm `matches`). */
export function filterMatches(
  ctx: ClassContext,
  f: Json | undefined,
  addr: JsonObject,
  name: string,
  seen: Set<string>,
): boolean {
  if (!isObject(f)) return true;
  const host = str(addr.host) ? ctx.view.hosts.get(addr.host as string) : undefined;
  switch (f.type) {
    case 'tag': {
      const tag = str(f.tag);
      if (!tag) return true;
      return tagMatch(strList(addr.tags), tag) || (!!host && tagMatch(strList(host.tags), tag));
    }
    case 'host': {
      if (!host) return false;
      const tag = str(f.tag);
      if (tag && !tagMatch(strList(host.tags), tag)) return false;
      if (truthy(f['no-agent']) !== truthy(host['no-agent'])) return false;
      const script = jqScript(f.jq);
      return script === undefined || jqTruthy(ctx, script, host, `host of address ${name}`);
    }
    case 'jq': {
      const script = jqScript(f.jq);
      return script === undefined || jqTruthy(ctx, script, addr, `address ${name}`);
    }
    case 'ip-version':
    case 'netmask': {
      const a = str(addr.address);
      if (!a) return false;
      if (!isIP(a)) {
        ctx.note(
          `Address ${name} (${a}) is a host name: whether it passes the ${f.type} filter depends on DNS, which cannot be decided offline; the preview treats it as not matching (the agent resolves it).`,
        );
        return false;
      }
      if (f.type === 'ip-version') return isIP(a) === Number(f['ip-version']);
      ctx.note(
        "A netmask filter is evaluated here (IP addresses against the CIDR, as Perl 4.x does); pSConfig 5.x's netmask filter always returns false, so a 5.x agent selects none of these addresses.",
      );
      const r = ipInCidr(a, typeof f.netmask === 'string' ? f.netmask : '');
      if (r === undefined)
        ctx.note(`Netmask ${jsonText(f.netmask)} is not a valid CIDR for ${a}; the filter does not match.`);
      return r === true;
    }
    case 'address-class': {
      const cls = str(f.class);
      if (!cls) return true;
      const def = ctx.view.addressClasses.get(cls);
      if (!def) return false;
      if (seen.has(cls)) {
        ctx.note(
          `Address class ${cls} refers to itself through address-class filters; pSConfig would recurse forever. The preview treats the loop as not matching.`,
        );
        return false;
      }
      return classMatches(ctx, def, addr, name, new Set([...seen, cls]));
    }
    case 'and':
      return Array.isArray(f.filters) && f.filters.every((sub) => filterMatches(ctx, sub, addr, name, seen));
    case 'or':
      return Array.isArray(f.filters) && f.filters.some((sub) => filterMatches(ctx, sub, addr, name, seen));
    case 'not':
      return f.filter === undefined ? true : !filterMatches(ctx, f.filter, addr, name, seen);
    default:
      return false;
  }
}

/** Perl truthiness of the jq result: null, false, 0, "" and "0" do not match. */
function jqTruthy(ctx: ClassContext, script: string, doc: JsonObject, what: string): boolean {
  const r = ctx.jqResults.get(script)?.get(doc);
  if (!r) return false;
  if (!r.ok) {
    ctx.note(`jq filter \`${script}\` failed on ${what}, so it does not match: ${r.error}`);
    return false;
  }
  const v = r.value;
  return v !== undefined && v !== null && v !== false && v !== 0 && v !== '' && v !== '0';
}

export function classMatches(
  ctx: ClassContext,
  cls: JsonObject,
  addr: JsonObject,
  name: string,
  seen: Set<string>,
): boolean {
  if (cls['match-filter'] !== undefined && !filterMatches(ctx, cls['match-filter'], addr, name, seen)) return false;
  if (cls['exclude-filter'] !== undefined && filterMatches(ctx, cls['exclude-filter'], addr, name, seen)) return false;
  return true;
}

/** The addresses a `{ "class": ... }` selector yields, in data-source order (no labels: classes select objects). */
export function selectClass(ctx: ClassContext, className: string): NameLabelAddress[] | undefined {
  const cls = ctx.view.addressClasses.get(className);
  if (!cls) return undefined;
  const ds = isObject(cls['data-source']) ? cls['data-source'].type : undefined;
  const source =
    ds === 'current-config' ? ctx.view.addresses : ds === 'requesting-agent' ? ctx.requestingAgent : undefined;
  if (!source) return [];
  const out: NameLabelAddress[] = [];
  for (const [name, data] of source)
    if (classMatches(ctx, cls, data, name, new Set([className]))) out.push({ name, data });
  return out;
}
