// The string checks pScheduler's jsonschema makes: `pattern` (Python's re.search) and `format` (ipv4, ipv6, uri,
// email). Two real host profiles (see docs/checks.md, pScheduler's own checks):
//   debian12  jsonschema 4.10 with python3-rfc3987 (Debian/Ubuntu perfSONAR hosts): ipaddress-based ip checks,
//             `uri` checked against RFC 3986;
//   el8       jsonschema 3.0.1 as pScheduler packages it (EL hosts): a regex for ipv4 (leading zeros allowed),
//             inet_pton for ipv6, `uri` not checked at all.
// Diagnostics use debian12 (what fails there fails on real agents); the comparison script runs both.

export type HostProfile = 'debian12' | 'el8';

const compiled = new Map<string, RegExp>();

/**
 * A Python `re` pattern as an equivalent JS RegExp. The one difference that matters for pScheduler's patterns:
 * Python's `$` also matches just before a final newline (`"PT30S\n"` is a valid Duration), so an unescaped `$`
 * outside a character class becomes `(?=\n?$)`. (`\d`, `\s`, `\w` stay ASCII-only here; Python's also match
 * other Unicode digits/spaces/letters.)
 */
export function pythonRegex(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) {
    let out = '';
    let inClass = false;
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern[i];
      if (c === '\\') {
        out += c + (pattern[i + 1] ?? '');
        i++;
      } else if (inClass) {
        if (c === ']') inClass = false;
        out += c;
      } else if (c === '[') {
        inClass = true;
        out += c;
        if (pattern[i + 1] === '^') out += pattern[++i];
        if (pattern[i + 1] === ']') out += pattern[++i]; // a leading `]` is literal in Python
      } else if (c === '$') out += '(?=\\n?$)';
      else out += c;
    }
    re = new RegExp(out);
    compiled.set(pattern, re);
  }
  return re;
}

/** Python's `ipaddress.IPv4Address(s)` (3.9.5+: no leading zeros), or jsonschema 3.0.1's regex check. */
export function isIPv4(s: string, profile: HostProfile = 'debian12'): boolean {
  // At most 15 characters (16 with the newline the el8 regex allows): a long string is refused before it is split.
  if (s.length > 16) return false;
  if (profile === 'el8') {
    const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\n?$/.exec(s);
    return !!m && m.slice(1, 5).every((p) => Number(p) <= 255);
  }
  const parts = s.split('.');
  if (parts.length !== 4) return false;
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p)) return false;
    if (p !== '0' && p[0] === '0') return false;
    if (Number(p) > 255) return false;
  }
  return true;
}

/** Python's `ipaddress.IPv6Address(s)` without a scope id (jsonschema 4.10), which inet_pton agrees with. */
export function isIPv6(s: string): boolean {
  // At most 45 characters (eight groups, or six and an IPv4 address): a long string is refused before it is split.
  if (!s || s.length > 45 || s.includes('%')) return false;
  const parts = s.split(':');
  if (parts.length < 3) return false;
  if (parts[parts.length - 1].includes('.')) {
    if (!isIPv4(parts.pop() as string)) return false;
    parts.push('0', '0');
  }
  if (parts.length > 9) return false;
  let skip = -1;
  for (let i = 1; i < parts.length - 1; i++) {
    if (parts[i] === '') {
      if (skip >= 0) return false;
      skip = i;
    }
  }
  let hi: number;
  let lo: number;
  if (skip >= 0) {
    hi = skip;
    lo = parts.length - skip - 1;
    if (parts[0] === '' && --hi) return false;
    if (parts[parts.length - 1] === '' && --lo) return false;
    if (8 - (hi + lo) < 1) return false;
  } else {
    if (parts.length !== 8 || parts[0] === '' || parts[7] === '') return false;
    hi = 8;
    lo = 0;
  }
  const hextets = [...parts.slice(0, hi), ...parts.slice(parts.length - lo)];
  return hextets.every((h) => /^[0-9A-Fa-f]{1,4}$/.test(h));
}

// RFC 3986 `URI` (scheme ":" hier-part ["?" query] ["#" fragment]), built from the RFC's ABNF as rfc3987's
// rule="URI" applies it, with Python's `$`.
const URI_RE = (() => {
  const hex = '[0-9A-Fa-f]';
  const unreserved = '[a-zA-Z0-9_.~-]';
  const pct = `%${hex}{2}`;
  const sub = "[!$&'()*+,;=]";
  const pchar = `(?:${unreserved}|${pct}|${sub}|:|@)`;
  const h16 = `${hex}{1,4}`;
  const octet = '(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)';
  const v4 = `(?:${octet}\\.){3}${octet}`;
  const ls32 = `(?:${h16}:${h16}|${v4})`;
  const v6 = [
    `(?:${h16}:){6}${ls32}`,
    `::(?:${h16}:){5}${ls32}`,
    `(?:${h16})?::(?:${h16}:){4}${ls32}`,
    `(?:(?:${h16}:)?${h16})?::(?:${h16}:){3}${ls32}`,
    `(?:(?:${h16}:){0,2}${h16})?::(?:${h16}:){2}${ls32}`,
    `(?:(?:${h16}:){0,3}${h16})?::${h16}:${ls32}`,
    `(?:(?:${h16}:){0,4}${h16})?::${ls32}`,
    `(?:(?:${h16}:){0,5}${h16})?::${h16}`,
    `(?:(?:${h16}:){0,6}${h16})?::`,
  ].join('|');
  const ipFuture = `v${hex}+\\.(?:${unreserved}|${sub}|:)+`;
  const host = `(?:\\[(?:${v6}|${ipFuture})\\]|${v4}|(?:${unreserved}|${pct}|${sub})*)`;
  const authority = `(?:(?:${unreserved}|${pct}|${sub}|:)*@)?${host}(?::[0-9]*)?`;
  const segment = `${pchar}*`;
  const segmentNz = `${pchar}+`;
  const hier = `(?://${authority}(?:/${segment})*|/(?:${segmentNz}(?:/${segment})*)?|${segmentNz}(?:/${segment})*|)`;
  const tail = `(?:${pchar}|/|\\?)*`;
  return new RegExp(`^[a-zA-Z][a-zA-Z0-9+.-]*:${hier}(?:\\?${tail})?(?:#${tail})?(?=\\n?$)`);
})();

export function isUri(s: string): boolean {
  return URI_RE.test(s);
}

/** Does a string pass `format` (unknown formats pass, as in jsonschema)? */
export function checkFormat(format: string, s: string, profile: HostProfile): boolean {
  switch (format) {
    case 'ipv4':
      return isIPv4(s, profile);
    case 'ipv6':
      return isIPv6(s);
    case 'email':
      return s.includes('@');
    case 'uri':
      return profile === 'el8' || isUri(s);
    default:
      return true;
  }
}
