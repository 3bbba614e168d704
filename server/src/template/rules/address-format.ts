// Address values are host names or IP literals: the official schema's `Host` (`address`, `lead-bind-address` of
// addresses, labels and remote entries) is `anyOf` format `hostname`, `ipv4`, `ipv6`. pSConfig's validator does not
// check formats (jsonschema without a FormatChecker), so `https://h`, `h:8080` or `[::1]` pass it, but the agent never
// matches such an address to itself and pScheduler rejects the tests built from it.
import { isIPv4, isIPv6 } from 'node:net';
import type { TemplateModel } from '../model';
import { members, propertyValue, stringValue, type JsonNode } from '../parse';
import { sectionNode } from '../symbols';
import { diag, type TemplateDiagnostic } from './diagnostic';

/** RFC 1123 host name, as JSON Schema's `hostname` format (labels of 1–63, at most 253 characters, a final dot allowed). */
const HOSTNAME =
  /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

export function isHostOrIp(value: string): boolean {
  return isIPv4(value) || isIPv6(value) || (HOSTNAME.test(value) && !/^[\d.]+$/.test(value));
}

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
  const check = (owner: string, obj: JsonNode | undefined): void => {
    if (obj?.type !== 'object') return;
    for (const field of ['address', 'lead-bind-address']) {
      const node = propertyValue(obj, field);
      const value = stringValue(node);
      // Variables are not expanded in addresses (template-variables.ts says so); wrong types: the schema check.
      if (node === undefined || value === undefined || value.includes('{%')) continue;
      const problem = addressProblem(value);
      if (!problem) continue;
      out.push(
        diag(
          'psconfig/invalid-address',
          'error',
          `\`${field}\` of ${owner} ${problem}. Addresses are host names or IP addresses (IPv4, IPv6), without scheme or port: agents match them against their own addresses and tests use them as endpoints.`,
          node.offset + 1,
          node.offset + node.length - 1,
        ),
      );
    }
  };
  for (const [name, prop] of members(sectionNode(model.parsed.root, 'addresses'))) {
    const addr = prop.children?.[1];
    check(`address \`${name}\``, addr);
    for (const [label, lp] of members(propertyValue(addr, 'labels')))
      check(`label \`${label}\` of address \`${name}\``, lp.children?.[1]);
    for (const [remote, rp] of members(propertyValue(addr, 'remote-addresses'))) {
      const entry = rp.children?.[1];
      check(`the remote entry \`${remote}\` of address \`${name}\``, entry);
      for (const [label, lp] of members(propertyValue(entry, 'labels')))
        check(`label \`${label}\` of the remote entry \`${remote}\` of address \`${name}\``, lp.children?.[1]);
    }
  }
  return out;
}
