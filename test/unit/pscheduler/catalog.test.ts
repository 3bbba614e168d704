// The data files, the module that loads them, and docs/checks.md's table of what is covered agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import {
  acceptedVersions,
  allPlugins,
  allTools,
  PSCHEDULER_COMMIT,
  type PluginData,
  type ToolData,
} from '../../../server/src/template/pscheduler/catalog';
import { pschedulerDataDir, checksDocPath } from '../../fixtures';

function pluginFiles(): string[] {
  return readdirSync(pschedulerDataDir).filter((f) => f.endsWith('.json') && f !== 'types.json');
}

test('every data file is loaded, and every loaded plug-in has its file', () => {
  const loaded = [
    ...allPlugins().map((p) => `${p.kind}-${p.name}.json`),
    ...allTools().map((t) => `tool-${t.name}.json`),
  ];
  assert.deepEqual(loaded.sort(), pluginFiles().sort());
});

test('every plug-in has at least one version, and every $ref of its schemas resolves', () => {
  for (const p of allPlugins()) {
    assert.ok(Object.keys(p.versions).length > 0, `${p.kind}/${p.name}`);
    const text = JSON.stringify(p.versions) + JSON.stringify(p.local);
    for (const [, where, name] of text.matchAll(/"#\/(pScheduler|local)\/([^"]+)"/g)) {
      if (where === 'local') assert.ok(name in p.local, `${p.kind}/${p.name}: #/local/${name}`);
    }
  }
});

/** The rows the table in docs/checks.md must have, derived from the data. */
function pluginRows(): string[] {
  const versions = (p: PluginData): string => {
    const v = acceptedVersions(p);
    return v.length > 1 ? `${v[0]}–${v[v.length - 1]}` : String(v[0]);
  };
  return allPlugins().map(
    (p) =>
      `| ${p.kind} | \`${p.name}\` | ${versions(p)} | ${p.bundle} | ${(p.rules ?? []).map((r) => `\`${r}\``).join(', ') || '–'} |`,
  );
}

function toolRows(): string[] {
  const row = (t: ToolData): string =>
    `| \`${t.name}\` | ${t.tests.join(', ') || '–'} | ${t.maxSchema ?? '–'} | ${t.bundle} | ${t.supportedOptions ? 'yes' : '–'} | ${(t.rules ?? []).length || '–'} |`;
  return allTools().map(row);
}

function section(readme: string, marker: string): string[] {
  const m = new RegExp(`<!-- ${marker} -->\\n([\\s\\S]*?)<!-- /${marker} -->`).exec(readme);
  assert.ok(m, `docs/checks.md has a <!-- ${marker} --> section`);
  return m[1].split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| kind') && !l.startsWith('| tool'));
}

test("docs/checks.md's table of plug-ins and versions is the data's", () => {
  const readme = readFileSync(checksDocPath, 'utf8');
  assert.deepEqual(section(readme, 'pscheduler-plugins'), pluginRows());
  assert.deepEqual(section(readme, 'pscheduler-tools'), toolRows());
  assert.ok(readme.includes(PSCHEDULER_COMMIT), 'docs/checks.md names the upstream commit followed');
});
