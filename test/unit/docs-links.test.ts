// The documentation holds together: every relative link in the README, the changelog, ARCHITECTURE.md, docs/*.md and
// the READMEs of examples/ and bench/ names a file of the repository, and every `#anchor` a heading of the page it
// points into (GitHub's heading ids), so moving a section between pages cannot leave a dead link behind. (Links to other sites are not followed: the tests run offline.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { repoRoot } from '../fixtures';

const root = repoRoot();

/** The pages checked: the README, the changelog, the architecture, everything under docs/, examples' and bench's READMEs. */
function pages(): string[] {
  const docs = join(root, 'docs');
  const md = existsSync(docs)
    ? readdirSync(docs)
        .filter((f) => f.endsWith('.md'))
        .map((f) => join(docs, f))
    : [];
  const top = ['README.md', 'CHANGELOG.md', 'ARCHITECTURE.md', 'examples/README.md', 'bench/README.md'];
  return [...top.map((f) => join(root, f)), ...md];
}

/** Markdown without fenced code blocks and inline code (a link written inside code is text, not a link). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's id for each heading of a page: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  const body = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of body.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n ? `${base}-${n}` : base);
  }
  for (const m of body.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) ids.add(m[1]);
  return ids;
}

test("GitHub's heading ids, as the pages' anchors use them", () => {
  const ids = headingIds(
    "# A\n## pScheduler's own checks (specs, archiver and context data, tools)\n### `psconfig-tools expand INPUT [--agent ADDRESS]...`\n## Notes\n## Notes\n```\n# not a heading\n```\n",
  );
  assert.deepEqual(
    [...ids],
    [
      'a',
      'pschedulers-own-checks-specs-archiver-and-context-data-tools',
      'psconfig-tools-expand-input---agent-address',
      'notes',
      'notes-1',
    ],
  );
});

test('every relative link in the documentation names a file of the repository and a heading of its page', () => {
  const dead: string[] = [];
  for (const page of pages()) {
    if (!existsSync(page)) continue;
    const text = readFileSync(page, 'utf8');
    for (const m of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<img\b[^>]*\bsrc="([^"]+)"/g)) {
      const url = m[1] ?? m[2];
      if (/^[a-z][a-z0-9+.-]*:/i.test(url)) continue; // https:, mailto: — another site
      const [path, anchor] = url.split('#') as [string, string | undefined];
      const target = path ? join(dirname(page), decodeURIComponent(path)) : page;
      const where = `${relative(root, page)}: ${url}`;
      if (!existsSync(target)) {
        dead.push(`${where} (no such file)`);
        continue;
      }
      if (anchor && statSync(target).isFile() && target.endsWith('.md')) {
        if (!headingIds(readFileSync(target, 'utf8')).has(anchor)) dead.push(`${where} (no such heading)`);
      }
    }
  }
  assert.deepEqual(dead, []);
});
