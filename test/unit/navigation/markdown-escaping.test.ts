// Template text in hovers is shown literally: a backtick in a name or an unknown variable does not end its code
// span, and jq text does not become a link or an image. Checked by rendering with a CommonMark renderer
// (markdown-it, present through @vscode/vsce) and by the exact markdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { code, fenced, plain } from '../../../server/src/template/navigation/markdown';
import { hoverAt } from '../../../server/src/template/navigation/hover';
import { navModel } from './nav-fixture';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (options?: { html?: boolean }) => { render(src: string): string };
const md = new MarkdownIt({ html: true });

/** The text of every <code> element, and whether links, images or raw HTML got through. */
function rendered(markdown: string): { codes: string[]; html: string } {
  const html = md.render(markdown);
  const codes = [...html.matchAll(/<code[^>]*>([\s\S]*?)<\/code>/g)].map((m) =>
    m[1]
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&'),
  );
  return { codes, html };
}

const hostile = ['a`b', '`lead', 'trail`', '``', 'x`` [link](command:rm) ![img](https://evil.example/p.png) <b>h</b>'];

test('code(): one span holding the text exactly, whatever backticks it contains', () => {
  for (const t of hostile) {
    const r = rendered(`before ${code(t)} after`);
    assert.deepEqual(r.codes, [t], `${t} → ${r.html}`);
    assert.doesNotMatch(r.html, /<a |<img |<b>/);
  }
  assert.equal(code('a'.repeat(300)).length < 220, true, 'long names are clipped');
});

test('plain() and fenced(): no markup, no early end of the block', () => {
  const r = rendered(plain('**bold** [link](https://x) ![i](https://y) <script>x</script> # h'));
  assert.doesNotMatch(r.html, /<strong>|<a |<img |<script>|<h1>/);
  const block = rendered(fenced('json', '"x"\n```\n[link](https://x)'));
  assert.equal(block.codes.length, 1);
  assert.doesNotMatch(block.html, /<a /);
});

function template(variable: string, group = 'g'): string {
  return JSON.stringify(
    {
      addresses: { a: { address: 'a.net' }, b: { address: 'b.net' } },
      groups: { [group]: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }] } },
      tests: { t: { type: 'latencybg', spec: { source: variable } } },
      tasks: { task: { group, test: 't' } },
    },
    null,
    2,
  );
}

test('hover on an unknown variable with a backtick in its name keeps it inside the code span', () => {
  const name = 'evil`](command:workbench.action.terminal.new) ![x](https://evil.example/t.png)';
  const text = template(`{% ${name} %}`);
  const h = hoverAt(navModel(text), text.indexOf('{% evil') + 4);
  assert.ok(h);
  const r = rendered(h.markdown);
  assert.deepEqual(r.codes, [JSON.parse(`"${name}"`) as string]);
  assert.doesNotMatch(r.html, /<a |<img /);
});

test('hover on a jq variable and on a name with backticks: shown as code, nothing rendered from them', () => {
  const text = template('{% jq .addresses[0] | "`**x** [l](https://e)" %}');
  const h = hoverAt(navModel(text), text.indexOf('{% jq') + 4);
  assert.ok(h);
  const r = rendered(h.markdown);
  assert.ok(
    r.codes.some((c) => c.includes('`**x** [l](https://e)')), // shown as written in the document, JSON escapes included
    r.html,
  );
  assert.doesNotMatch(r.html, /<a |<strong>x/);
  const named = template('{% address[0] %}', 'g`[x](https://e)');
  const g = hoverAt(navModel(named), named.indexOf('"group": "g`') + 11);
  assert.ok(g);
  const rg = rendered(g.markdown);
  assert.ok(rg.codes.includes('g`[x](https://e)'), rg.html);
  assert.doesNotMatch(rg.html, /<a /);
});
