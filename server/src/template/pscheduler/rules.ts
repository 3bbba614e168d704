// Checks pScheduler's programs make after the schema (the `rules` of a plug-in's data file). Each follows the
// upstream program line by line (paths in comments), including its odd corners.
import { memberProp, memberValue, type NodeLike } from './nodes';
import type { Problem, Expansion } from './validate';
import { isIPv4, isIPv6 } from './formats';

export interface RuleInput {
  node: NodeLike;
  /** Did the schema check pass? */
  schemaOk: boolean;
  expansion?: (node: NodeLike, wantValues: boolean) => Expansion | undefined;
  /** Python's view of a number token: an int (no fraction or exponent in the text)? */
  isIntLiteral: (node: NodeLike) => boolean;
}

function rule(node: NodeLike, message: string, path: (string | number)[] = []): Problem {
  return { kind: 'rule', node, path, message, severity: 'error' };
}

function prop(obj: NodeLike, key: string): NodeLike | undefined {
  return memberValue(obj, key);
}

/** The concrete values a node may take: itself, or its expansion's candidates; undefined when unknown. */
function concrete(node: NodeLike, input: RuleInput): NodeLike[] | undefined {
  if (node.type === 'string' && (node.value as string).includes('{%') && input.expansion) {
    const e = input.expansion(node, true);
    if (!e) return [node];
    if (e.kind === 'boolean') return e.values?.map((v) => standIn(node, 'boolean', v));
    if (e.kind === 'string') return e.values?.map((c) => standIn(node, 'string', c.value));
    return undefined;
  }
  return [node];
}

/** What a variable becomes, in the variable's place (same range and parent, for messages). */
function standIn(node: NodeLike, type: 'string' | 'boolean', value: string | boolean): NodeLike {
  return { type, offset: node.offset, length: node.length, value, parent: node.parent };
}

/** Python truthiness of a JSON value. */
function truthy(node: NodeLike): boolean {
  switch (node.type) {
    case 'boolean':
      return node.value === true;
    case 'number':
      return node.value !== 0;
    case 'string':
      return (node.value as string) !== '';
    case 'null':
      return false;
    default:
      return (node.children?.length ?? 0) > 0;
  }
}

/** pscheduler-test-latency/latency/spec-is-valid (latencybg alike): `flip` without `source` is refused. */
export function flipNeedsSource(input: RuleInput): Problem[] {
  if (!input.schemaOk || prop(input.node, 'source')) return [];
  const flip = prop(input.node, 'flip');
  if (!flip) return [];
  const values = concrete(flip, input);
  if (!values?.some(truthy)) return [];
  const templated = values.length !== 1 || values[0] !== flip;
  return [
    rule(
      flip,
      templated
        ? 'pScheduler refuses flipped tests without `source` ("Flipped testing requires source and dest"), and pSConfig sets `{% flip %}` to true when the scheduling address has no agent. Add `"source": "{% address[0] %}"`.'
        : 'pScheduler refuses `flip: true` without `source` ("Flipped testing requires source and dest"). Add `source`.',
      ['flip'],
    ),
  ];
}

/** pscheduler-test-throughput/throughput/spec-is-valid: both keys present (whatever their values) is refused. */
export function singleEndedLoopback(input: RuleInput): Problem[] {
  if (!input.schemaOk) return [];
  const se = memberProp(input.node, 'single-ended');
  const lb = memberProp(input.node, 'loopback');
  if (!se || !lb) return [];
  return [
    rule(
      lb.children![0],
      'pScheduler refuses `single-ended` together with `loopback` ("mutually exclusive"), even when one is false: remove one of them.',
      ['loopback'],
    ),
  ];
}

/** pscheduler-test-s3throughput/s3throughput/spec-is-valid: urlparse(url).scheme must be http or https. */
export function urlHttpScheme(input: RuleInput): Problem[] {
  const url = prop(input.node, 'url');
  if (!url || url.type !== 'string') return [];
  for (const v of concrete(url, input) ?? []) {
    const scheme = urlScheme(v.value as string);
    if (scheme === undefined)
      return [
        rule(
          url,
          'pScheduler cannot parse this `url` (Python\'s urlparse: "Invalid IPv6 URL"; brackets must hold an IPv6 address), so its validator crashes and the task is refused.',
          ['url'],
        ),
      ];
    if (scheme !== 'http' && scheme !== 'https')
      return [
        rule(
          url,
          `pScheduler's s3throughput test needs an http or https \`url\` ("Invalid URL scheme"), not ${scheme ? `\`${scheme}:\`` : 'one without a scheme'}.`,
          ['url'],
        ),
      ];
  }
  return [];
}

/** Python 3.11's urllib.parse.urlsplit(url).scheme; undefined where it raises ValueError (bad brackets). */
export function urlScheme(url: string): string | undefined {
  return urlSplit(url)?.scheme;
}

/**
 * Python 3.11's urllib.parse.urlsplit(url): the scheme (lower case) and the path (after the netloc, before `?` or
 * `#`, not decoded); undefined where it raises ValueError (bad brackets). `urlparse` gives the same path for the
 * schemes that take no `;params` (file among them).
 */
export function urlSplit(url: string): { scheme: string; path: string } | undefined {
  // eslint-disable-next-line no-control-regex -- the URL standard strips leading C0 controls and spaces
  let s = url.replace(/^[\x00-\x20]+/, '').replace(/[\t\r\n]/g, '');
  let scheme = '';
  const i = s.indexOf(':');
  if (i > 0 && /^[A-Za-z]/.test(s) && /^[A-Za-z0-9+.-]+$/.test(s.slice(0, i))) {
    scheme = s.slice(0, i).toLowerCase();
    s = s.slice(i + 1);
  }
  if (s.startsWith('//')) {
    const rest = s.slice(2);
    const end = rest.search(/[/?#]/);
    const netloc = end < 0 ? rest : rest.slice(0, end);
    const open = netloc.includes('[');
    const close = netloc.includes(']');
    if (open !== close) return undefined;
    if (open && !bracketedNetlocOk(netloc)) return undefined;
    s = end < 0 ? '' : rest.slice(end);
  }
  const q = s.search(/[?#]/);
  return { scheme, path: q < 0 ? s : s.slice(0, q) };
}

/** urllib.parse._check_bracketed_netloc */
function bracketedNetlocOk(netloc: string): boolean {
  const hostPort = netloc.slice(netloc.lastIndexOf('@') + 1);
  const b = hostPort.indexOf('[');
  let host: string;
  if (b >= 0) {
    if (b > 0) return false;
    const inner = hostPort.slice(b + 1);
    const c = inner.indexOf(']');
    host = c < 0 ? inner : inner.slice(0, c);
    const port = c < 0 ? '' : inner.slice(c + 1);
    if (port && !port.startsWith(':')) return false;
  } else host = hostPort.split(':')[0];
  if (host.startsWith('v')) return /^v[a-fA-F0-9]+\..+$/.test(host);
  const [addr, scope] = splitScope(host);
  return addr !== undefined && isIPv6(addr) && (scope === undefined || scope.length > 0);
}

// ---- netreach (pscheduler-test-netreach/netreach/validate.py) ---------------------------------------------------

interface Network {
  v: 4 | 6;
  base: bigint;
  bits: number;
}

/**
 * validate.py: when the schema fails and there is no `gateway`, that is the answer; otherwise (schema passed, or a
 * `gateway` is present, in which case schema problems are ignored!) the network and gateway decide.
 */
export function netreachNetwork(input: RuleInput): { problems: Problem[]; schemaIgnored: boolean } {
  const gatewayNode = prop(input.node, 'gateway');
  if (!input.schemaOk && !gatewayNode) return { problems: [], schemaIgnored: false };
  const schemaIgnored = !input.schemaOk;
  const networkNode = prop(input.node, 'network');
  if (!networkNode) return { problems: [rule(input.node, 'netreach needs `network`.')], schemaIgnored };
  const nets = concrete(networkNode, input);
  if (!nets) return { problems: [], schemaIgnored };
  for (const n of nets) {
    const net = parseNetwork(pyStr(n));
    if (typeof net === 'string')
      return {
        problems: [rule(networkNode, `pScheduler refuses \`network\`: Invalid network: ${net}.`, ['network'])],
        schemaIgnored,
      };
    const size = 1n << BigInt((net.v === 4 ? 32 : 128) - net.bits);
    if (size <= 2n)
      return {
        problems: [
          rule(networkNode, 'pScheduler refuses `network`: it must have at least two host addresses.', ['network']),
        ],
        schemaIgnored,
      };
    if (!gatewayNode) continue;
    const gws = concrete(gatewayNode, input);
    if (!gws) continue;
    for (const g of gws) {
      const message = gatewayProblem(net, size, g, input.isIntLiteral);
      if (message)
        return {
          problems: [rule(gatewayNode, `pScheduler refuses \`gateway\`: ${message}`, ['gateway'])],
          schemaIgnored,
        };
    }
  }
  return { problems: [], schemaIgnored };
}

function gatewayProblem(
  net: Network,
  size: bigint,
  g: NodeLike,
  isIntLiteral: (node: NodeLike) => boolean,
): string | undefined {
  let addr: bigint;
  let version: 4 | 6;
  let scoped = false;
  if (g.type === 'number' && isIntLiteral(g)) {
    // isinstance(gateway, int): abs() must fit, a negative counts from the end (minus one more)
    let k = BigInt(g.value as number);
    if ((k < 0n ? -k : k) > size - 2n) return 'Gateway host number is outside the network.';
    if (k < 0n) k -= 1n;
    addr = net.base + (k < 0n ? size + k : k);
    version = net.v;
  } else if (g.type === 'boolean') {
    // a Python bool is an int: true is host 1, false host 0
    addr = net.base + (g.value ? 1n : 0n);
    version = net.v;
  } else if (g.type === 'string') {
    const parsed = parseAddress(g.value as string);
    if (!parsed) return `'${g.value as string}' does not appear to be an IPv4 or IPv6 address.`;
    ({ value: addr, v: version, scoped } = parsed);
  } else return 'Unknown gateway type.  Check JSON validation.';
  if (version !== net.v) return 'Network and gateway are not in the same family.';
  const width = net.v === 4 ? 32 : 128;
  const mask = ((1n << BigInt(net.bits)) - 1n) << BigInt(width - net.bits);
  if ((addr & mask) !== net.base) return 'Gateway is outside of the network.';
  if (!scoped && (addr === net.base || addr === net.base + size - 1n))
    return 'Gateway cannot be the network or broadcast address.';
  return undefined;
}

/** Python's str() of a JSON value, as validate.py passes `network` to ip_network. */
function pyStr(n: NodeLike): string {
  if (n.type === 'string') return n.value as string;
  if (n.type === 'boolean') return n.value ? 'True' : 'False';
  if (n.type === 'null') return 'None';
  if (n.type === 'number') return String(n.value);
  return '';
}

function parseAddress(s: string): { v: 4 | 6; value: bigint; scoped: boolean } | undefined {
  if (isIPv4(s)) return { v: 4, value: v4Int(s), scoped: false };
  const [addr, scope] = splitScope(s);
  if (addr !== undefined && isIPv6(addr)) return { v: 6, value: v6Int(addr), scoped: scope !== undefined };
  return undefined;
}

function splitScope(s: string): [string | undefined, string | undefined] {
  const i = s.indexOf('%');
  if (i < 0) return [s, undefined];
  const scope = s.slice(i + 1);
  return !scope || scope.includes('%') ? [undefined, undefined] : [s.slice(0, i), scope];
}

/** ipaddress.ip_network(s) with strict=True; a string explains why not. */
export function parseNetwork(s: string): Network | string {
  const slash = s.split('/');
  if (slash.length > 2) return `'${s}' does not appear to be an IPv4 or IPv6 network`;
  const [addr, prefix] = slash;
  let net: Network;
  if (isIPv4(addr)) {
    const bits = prefix === undefined ? 32 : v4Prefix(prefix);
    if (bits === undefined) return `'${s}' does not appear to be an IPv4 or IPv6 network`;
    net = { v: 4, base: v4Int(addr), bits };
  } else if (isIPv6(addr)) {
    const bits = prefix === undefined ? 128 : /^[0-9]+$/.test(prefix) && Number(prefix) <= 128 ? Number(prefix) : -1;
    if (bits < 0) return `'${s}' does not appear to be an IPv4 or IPv6 network`;
    net = { v: 6, base: v6Int(addr), bits };
  } else return `'${s}' does not appear to be an IPv4 or IPv6 network`;
  const width = net.v === 4 ? 32 : 128;
  const hostBits = (1n << BigInt(width - net.bits)) - 1n;
  if ((net.base & hostBits) !== 0n) return `${s} has host bits set`;
  return net;
}

/** An IPv4 prefix: a length, a netmask (255.255.255.0) or a host mask (0.0.0.255). */
function v4Prefix(p: string): number | undefined {
  if (/^[0-9]+$/.test(p)) return Number(p) <= 32 ? Number(p) : undefined;
  if (!isIPv4(p)) return undefined;
  const n = v4Int(p);
  for (let bits = 0; bits <= 32; bits++) {
    const mask = bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << BigInt(32 - bits);
    if (n === mask) return bits;
    if (n === (~mask & 0xffffffffn)) return bits;
  }
  return undefined;
}

function v4Int(s: string): bigint {
  return s.split('.').reduce((acc, p) => (acc << 8n) | BigInt(Number(p)), 0n);
}

function v6Int(s: string): bigint {
  const hextets = (part: string): string[] => {
    if (!part) return [];
    const out = part.split(':');
    if (out[out.length - 1].includes('.')) {
      const v4 = v4Int(out.pop() as string);
      out.push(((v4 >> 16n) & 0xffffn).toString(16), (v4 & 0xffffn).toString(16));
    }
    return out;
  };
  const gap = s.indexOf('::');
  const hi = hextets(gap < 0 ? s : s.slice(0, gap));
  const lo = gap < 0 ? [] : hextets(s.slice(gap + 2));
  const all = [...hi, ...Array<string>(8 - hi.length - lo.length).fill('0'), ...lo];
  return all.reduce((acc, p) => (acc << 16n) | BigInt(parseInt(p, 16)), 0n);
}
