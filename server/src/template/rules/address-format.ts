// Address values are host names or IP literals: the official schema's `Host` (`address`, `lead-bind-address` of
// addresses, labels and remote entries) is `anyOf` format `hostname`, `ipv4`, `ipv6`. pSConfig's validator does not
// check formats (jsonschema without a FormatChecker), so `https://h`, `h:8080` or `[::1]` pass it, but the agent never
// matches such an address to itself and pScheduler rejects the tests built from it.
import { isIPv4, isIPv6 } from 'node:net';
import type { TemplateModel } from '../model';
import { NODE, type Tree } from '../tree';
import { diag, type TemplateDiagnostic } from './diagnostic';

/**
 * RFC 1123 host name, as JSON Schema's `hostname` format: dot-separated labels of 1–63 letters, digits and `-` (not
 * first or last), at most 253 characters besides a final dot, which is allowed. A loop rather than a regular
 * expression: it runs on every address and label of a template on each version.
 */
function isHostname(value: string): boolean {
  const n = value.length - (value.endsWith('.') ? 1 : 0);
  if (n < 1 || n > 253) return false;
  let label = 0;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c === 46) {
      // `.`: the label before it is complete
      if (label === 0 || value.charCodeAt(i - 1) === 45) return false;
      label = 0;
      continue;
    }
    const alnum = (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    if (!alnum && (c !== 45 || label === 0)) return false;
    if (++label > 63) return false;
  }
  return label > 0 && value.charCodeAt(n - 1) !== 45;
}

export function isHostOrIp(value: string): boolean {
  // Host names first: they are most addresses, and node's IPv6 test is one long regular expression.
  return (
    (isHostname(value) && !ALL_DIGITS_AND_DOTS.test(value)) || isIPv4(value) || (value.includes(':') && isIPv6(value))
  );
}
const ALL_DIGITS_AND_DOTS = /^[\d.]+$/;

/** Why `value` is not a host name or IP literal, with the fix; undefined when it is one. */
export function addressProblem(value: string): string | undefined {
  if (isHostOrIp(value)) return undefined;
  if (value === '') return 'is empty';
  if (/\s/.test(value)) return 'contains whitespace';
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value);
  if (scheme) {
    let host = '';
    try {
      host = new URL(value).hostname.replace(/^\[|\]$/g, '');
    } catch {
      // not a URL either; the generic advice follows
    }
    return `is a URL (${scheme[1]}://…): write only the host${host ? `, \`${host}\`` : ''}`;
  }
  const bracketed = /^\[([^\]]*)\](?::(\d+))?$/.exec(value);
  if (bracketed && isIPv6(bracketed[1]))
    return `puts the IPv6 address in brackets${bracketed[2] ? ' with a port' : ''}: write \`${bracketed[1]}\` (brackets and ports belong in \`pscheduler-address\`)`;
  const hostPort = /^(.+):(\d+)$/.exec(value);
  if (hostPort && !isIPv6(hostPort[1]) && isHostOrIp(hostPort[1]))
    return `has a port (${hostPort[2]}): write \`${hostPort[1]}\` (a pScheduler port belongs in \`pscheduler-address\`)`;
  const cidr = /^(.+)\/(\d+)$/.exec(value);
  if (cidr && (isIPv4(cidr[1]) || isIPv6(cidr[1])))
    return `is a network (CIDR), not one address: write the host's address, e.g. \`${cidr[1]}\``;
  if (/^[\d.]+$/.test(value)) return 'is not a valid IPv4 address (four numbers 0–255)';
  if (/^[0-9a-f:]+$/i.test(value) && value.includes(':')) return 'is not a valid IPv6 address';
  if (value.includes('_'))
    return 'is not a host name: `_` is not allowed in host names (letters, digits and `-` in dot-separated labels)';
  return 'is neither a host name (letters, digits and `-` in dot-separated labels of at most 63 characters) nor an IP address';
}

export function checkAddressFormats(model: TemplateModel): TemplateDiagnostic[] {
  const out: TemplateDiagnostic[] = [];
  const t = model.parsed.tree;
  if (!model.parsed.root) return out;
  // On tree indexes, and the owner's words made only for a problem (from the indexes of its keys): a large template
  // has thousands of addresses with labels, nearly all of them fine.
  t.eachMember(t.propertyValue(0, 'addresses'), (prop, addr) => {
    checkAddress(t, addr, out, prop, -1, -1);
    t.eachMember(t.propertyValue(addr, 'labels'), (lp, label) => checkAddress(t, label, out, prop, -1, lp));
    t.eachMember(t.propertyValue(addr, 'remote-addresses'), (rp, entry) => {
      checkAddress(t, entry, out, prop, rp, -1);
      t.eachMember(t.propertyValue(entry, 'labels'), (lp, label) => checkAddress(t, label, out, prop, rp, lp));
    });
  });
  return out;
}

/** The address fields of object `obj`; `address`, `remote` and `label` are the property indexes naming it (-1: none). */
function checkAddress(
  t: Tree,
  obj: number,
  out: TemplateDiagnostic[],
  address: number,
  remote: number,
  label: number,
): void {
  if (t.type(obj) !== OBJECT) return;
  for (const field of FIELDS) {
    const node = t.propertyValue(obj, field);
    // Variables are not expanded in addresses (template-variables.ts says so); wrong types: the schema check.
    if (node < 0 || t.type(node) !== STRING) continue;
    const value = t.str(node);
    if (value.includes('{%')) continue;
    const problem = addressProblem(value);
    if (!problem) continue;
    const entry = remote >= 0 ? `the remote entry \`${t.str(remote + 1)}\` of ` : '';
    const owner = `${label >= 0 ? `label \`${t.str(label + 1)}\` of ` : ''}${entry}address \`${t.str(address + 1)}\``;
    out.push(
      diag(
        'psconfig/invalid-address',
        'error',
        `\`${field}\` of ${owner} ${problem}. Addresses are host names or IP addresses (IPv4, IPv6), without scheme or port: agents match them against their own addresses and tests use them as endpoints.`,
        t.start[node] + 1,
        t.end[node] - 1,
      ),
    );
  }
}

const FIELDS = ['address', 'lead-bind-address'] as const;
const { OBJECT, STRING } = NODE;
