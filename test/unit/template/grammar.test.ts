// The TextMate grammars: well-formed, declared in package.json, and the variable patterns capture what they should.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './helpers';

interface Rule {
  match?: string;
  begin?: string;
  end?: string;
  patterns?: Rule[];
  captures?: Record<string, { name: string }>;
  name?: string;
}
interface Grammar extends Rule {
  scopeName: string;
  injectionSelector?: string;
  repository: Record<string, Rule>;
}

const load = (f: string): Grammar => JSON.parse(readFileSync(join(repoRoot, 'syntaxes', f), 'utf8')) as Grammar;
const grammar = load('psconfig.tmLanguage.json');
const injection = load('psconfig-variables.injection.json');

test('package.json declares both grammars with their scope names', () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: { grammars: { scopeName: string; path: string }[] };
  };
  const declared = new Map(pkg.contributes.grammars.map((g) => [g.path.replace(/^\.\//, ''), g.scopeName]));
  assert.equal(declared.get('syntaxes/psconfig.tmLanguage.json'), grammar.scopeName);
  assert.equal(declared.get('syntaxes/psconfig-variables.injection.json'), injection.scopeName);
  assert.match(injection.injectionSelector ?? '', /string\.quoted\.double\.json/);
});

test('every regex compiles and every include resolves', () => {
  for (const g of [grammar, injection]) {
    const visit = (r: Rule): void => {
      for (const re of [r.match, r.begin, r.end]) if (re !== undefined) assert.doesNotThrow(() => new RegExp(re), re);
      for (const p of r.patterns ?? []) {
        const inc = (p as { include?: string }).include;
        if (inc?.startsWith('#')) assert.ok(g.repository[inc.slice(1)], `${g.scopeName}: ${inc}`);
        visit(p);
      }
    };
    visit(g);
    Object.values(g.repository).forEach(visit);
  }
});

/** First injection rule (in the grammar's order) matching at the start of s, with its named captures. */
function firstMatch(s: string): { rule: string; captures: Record<string, string> } | undefined {
  const order = (injection.repository.variable.patterns ?? []).map((p) => (p as { include: string }).include.slice(1));
  for (const name of order) {
    const r = injection.repository[name];
    const m = new RegExp(r.match!, 'y').exec(s);
    if (!m) continue;
    const captures: Record<string, string> = {};
    for (const [i, c] of Object.entries(r.captures ?? {}))
      if (m[Number(i)] !== undefined) captures[c.name] = m[Number(i)];
    return { rule: name, captures };
  }
  return undefined;
}

test('variable name, index and jq expression are captured', () => {
  const idx = firstMatch('{% pscheduler_address[1] %}')!;
  assert.equal(idx.rule, 'indexed');
  assert.equal(idx.captures['variable.language.template-variable.psconfig'], 'pscheduler_address');
  assert.equal(idx.captures['constant.numeric.index.psconfig'], '1');
  const jq = firstMatch('{% jq .addresses[0]._meta.\\"display-name\\" %}')!;
  assert.equal(jq.rule, 'jq');
  assert.equal(jq.captures['meta.embedded.expression.jq source.jq'], '.addresses[0]._meta.\\"display-name\\"');
  assert.equal(firstMatch('{% flip %}')!.rule, 'plain');
  assert.equal(firstMatch('{% bogus %}')!.rule, 'unknown');
  assert.equal(firstMatch('{%address[0]%}')!.rule, 'missing-space');
  assert.equal(firstMatch('{% address[0]%}')!.rule, 'missing-space');
});
