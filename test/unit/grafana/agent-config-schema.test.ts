// grafana-agent.json (the pSConfig Grafana agent's own configuration) gets the agent's official schema
// (schemas/psconfig-grafana-agent.schema.json, registered in package.json `jsonValidation`): checked here with
// vscode-json-languageservice, the library behind VS Code's JSON support, on perfSONAR's shipped configuration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getLanguageService, type Diagnostic } from 'vscode-json-languageservice';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fixturesDir, repoRoot } from '../../fixtures';

const root = repoRoot();
const SCHEMA = join(root, 'schemas', 'psconfig-grafana-agent.schema.json');
const SHIPPED = readFileSync(join(fixturesDir, 'psconfig', 'grafana', 'grafana-agent.json'), 'utf8');

function service() {
  const ls = getLanguageService({});
  ls.configure({
    validate: true,
    allowComments: false,
    schemas: [
      {
        uri: 'file:///schema.json',
        fileMatch: ['*grafana-agent.json'],
        schema: JSON.parse(readFileSync(SCHEMA, 'utf8')) as object,
      },
    ],
  });
  return ls;
}

async function validate(text: string): Promise<Diagnostic[]> {
  const ls = service();
  const doc = TextDocument.create('file:///etc/perfsonar/psconfig/grafana-agent.json', 'json', 1, text);
  return ls.doValidation(doc, ls.parseJSONDocument(doc));
}

async function labelsAt(text: string, marker: string): Promise<string[]> {
  const ls = service();
  const offset = text.indexOf(marker);
  assert.ok(offset >= 0, marker);
  const clean = text.replace(marker, '');
  const doc = TextDocument.create('file:///etc/perfsonar/psconfig/grafana-agent.json', 'json', 1, clean);
  const list = await ls.doComplete(doc, doc.positionAt(offset), ls.parseJSONDocument(doc));
  return (list?.items ?? []).map((i) => i.label.replace(/^"|"$/g, ''));
}

test('package.json gives grafana-agent.json the agent schema, and keeps the template schema off agent files', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    contributes: { jsonValidation: { fileMatch: string[]; url: string }[] };
  };
  const rules = pkg.contributes.jsonValidation;
  const agent = rules.find((r) => r.url === './schemas/psconfig-grafana-agent.schema.json');
  assert.deepEqual(agent?.fileMatch, ['**/grafana-agent.json']);
  const template = rules.find((r) => r.url === './schemas/psconfig.schema.json');
  assert.ok(template?.fileMatch.includes('!**/grafana-agent.json'));
  assert.ok(template?.fileMatch.includes('!**/pscheduler-agent.json'));
});

test("perfSONAR's shipped grafana-agent.json is valid against the schema", async () => {
  assert.deepEqual(await validate(SHIPPED), []);
});

test('mistakes in a grafana-agent.json are reported: unknown keys, a wrong selector, a missing field', async () => {
  const cfg = JSON.parse(SHIPPED) as { displays: Record<string, Record<string, unknown>> } & Record<string, unknown>;
  cfg['grafana-urls'] = 'https://localhost/grafana';
  cfg.displays.packet_loss.datasource_selector = 'automatic';
  delete cfg.displays.rtt_min.unit;
  const messages = (await validate(JSON.stringify(cfg, null, 2))).map((d) =>
    typeof d.message === 'string' ? d.message : d.message.value,
  );
  assert.ok(
    messages.some((m) => /grafana-urls/.test(m)),
    messages.join('\n'),
  );
  assert.ok(
    messages.some((m) => /auto/.test(m) && /manual/.test(m)),
    messages.join('\n'),
  );
  assert.ok(
    messages.some((m) => /unit/.test(m)),
    messages.join('\n'),
  );
});

test('completion offers the top-level keys, display fields and datasource_selector values', async () => {
  const top = await labelsAt('{\n  |\n}', '|');
  for (const k of ['displays', 'grafana-url', 'task-groups', 'task-group-default', 'remotes'])
    assert.ok(top.includes(k), k);
  const display = await labelsAt('{"displays": {"mine": {|}}}', '|');
  for (const k of ['task_selector', 'stat_field', 'thresholds', 'priority', 'datasource_selector'])
    assert.ok(display.includes(k), `${k} in ${display.join(', ')}`);
  const values = await labelsAt('{"displays": {"mine": {"datasource_selector": |}}}', '|');
  assert.deepEqual(values.sort(), ['auto', 'manual']);
});
