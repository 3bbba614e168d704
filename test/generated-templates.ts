// Templates generated for tests that need one too large to commit: the issue-21 case of a large inventory file
// (tens of thousands of addresses, most of them unused: each a hint) with one task naming a group that does not
// exist (one error, which must not hide behind the hints). The good task names its Grafana display name, so the only
// problems are that error and the hints.

export interface UnusedInventory {
  text: string;
  /** Addresses no group selects (one `unused-definition` hint each). */
  unused: number;
  /** The group the broken task names. */
  missingGroup: string;
}

/**
 * About `bytes` of JSON (never more): `used` addresses in one mesh group with a task, then unused addresses up to
 * the size, and a task naming `missingGroup`. Each address carries a description, as inventories do.
 */
export function unusedInventory(bytes: number, used = 2000, missingGroup = 'no-such-group'): UnusedInventory {
  const head = (i: number): string => {
    const name = `ps-${String(i).padStart(6, '0')}.example.net`;
    return `    "${name}": { "address": "${name}", "tags": ["inventory"], "_meta": { "display-name": "Host ${i}", "description": "`;
  };
  const description = 'rack 12, row 4, site inventory entry kept for the record, feed B';
  const entry = (i: number): string => `${head(i)}${description}" } }`;
  const usedNames = Array.from({ length: used }, (_, i) => `ps-${String(i).padStart(6, '0')}.example.net`);
  const tail =
    `\n  },\n  "groups": { "mesh": { "type": "mesh", "addresses": [${usedNames.map((n) => `{ "name": "${n}" }`).join(', ')}] } },\n` +
    `  "tests": { "rtt": { "type": "rtt", "spec": { "source": "{% address[0] %}", "dest": "{% address[1] %}" } } },\n` +
    `  "tasks": {\n    "mesh-rtt": { "group": "mesh", "test": "rtt", "reference": { "display-task-name": "mesh-rtt" } },\n    "broken": { "group": "${missingGroup}", "test": "rtt" }\n  }\n}\n`;
  const parts: string[] = [];
  let size = '{\n  "addresses": {\n'.length + tail.length;
  for (let i = 0; ; i++) {
    const e = entry(i);
    if (i >= used && size + e.length + 2 > bytes) break;
    parts.push(e);
    size += e.length + 2;
  }
  return {
    text: `{\n  "addresses": {\n${parts.join(',\n')}${tail}`,
    unused: parts.length - used,
    missingGroup,
  };
}
