// The custom expansion request (psconfig/expandTasks), task and archive code lenses, and variable hovers that
// show the first combination's value, against the bundled server on real example templates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeLens, Hover } from 'vscode-languageserver-protocol';
import type { ExpandTasksParams, ExpandTasksResult, PreviewTasksText } from '../../common/protocol';
import { ExpandTasksRequest, ServerCommands } from '../../common/protocol';
import { LspClient, serverForSuite, exampleText, exampleUri, positionOf } from './lsp-client';

let client: LspClient;
const MESH = 'perl-shared--client-psconfig-mesh.json';
const meshText = exampleText(MESH);
const meshUri = exampleUri(MESH);
const a = 'host-a.perfsonar.net';
const b = 'host-b.perfsonar.net';
const c = 'host-c.perfsonar.net';

serverForSuite((c) => (client = c), {}, [[meshUri, meshText]]);

const expand = (params: ExpandTasksParams): Promise<ExpandTasksResult> =>
  client.request<ExpandTasksResult>(ExpandTasksRequest.method, params);

test('expandTasks on an open document gives the mesh pairs in pSConfig order', async () => {
  const r = await expand({ uri: meshUri });
  assert.equal(r.error, undefined);
  assert.equal(r.version, 1);
  assert.deepEqual(
    r.combinations.map((x) => x.addressValues.join(' → ')),
    [`${a} → ${b}`, `${a} → ${c}`, `${b} → ${a}`, `${b} → ${c}`, `${c} → ${a}`, `${c} → ${b}`],
  );
  assert.equal(r.tasks[0].count, 6);
  assert.deepEqual(r.agents, [a, b, c]);
  // The archive's variable is expanded per agent.
  assert.equal((r.combinations[2].pscheduler?.archives[0].data as Record<string, unknown>)['measurement-agent'], b);
});

test('agent filter and limit', async () => {
  const forA = await expand({ uri: meshUri, agentAddresses: [a] });
  assert.deepEqual(
    forA.combinations.map((x) => x.addressValues[1]),
    [b, c],
  );
  const limited = await expand({ uri: meshUri, limit: 3 });
  assert.equal(limited.combinations.length, 3);
  assert.equal(limited.truncated, true);
});

test('the expansion follows edits of the open document', async () => {
  const uri = 'file:///tmp/psconfig-lsp-expand/edited.json';
  const text = meshText.replace('{ "name": "host-c.perfsonar.net" }', '{ "name": "host-b.perfsonar.net" }');
  await client.open(uri, meshText);
  assert.equal((await expand({ uri })).combinations.length, 6);
  await client.change(uri, [{ text }]);
  const r = await expand({ uri });
  assert.equal(r.version, 2);
  // The duplicated selector makes b appear twice; c is gone.
  assert.ok(r.combinations.every((x) => !x.addressValues.includes(c)));
  client.close(uri);
});

test('a template that is not open is expanded from disk; a syntax error is reported, not thrown', async () => {
  const r = await expand({ uri: exampleUri('psconfig--example-1-simple.json') });
  assert.equal(r.combinations.length, 18);
  const uri = 'file:///tmp/psconfig-lsp-expand/broken.json';
  await client.open(uri, meshText.slice(0, 200));
  const broken = await expand({ uri });
  assert.match(broken.error ?? '', /line \d+, column \d+/);
  assert.deepEqual(broken.combinations, []);
  client.close(uri);
});

test('includes are resolved relative to the template file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'psconfig-include-'));
  try {
    const full = JSON.parse(meshText) as Record<string, unknown>;
    const { tasks, tests, schedules, ...rest } = full;
    writeFileSync(join(dir, 'tasks.json'), JSON.stringify({ tasks, tests, schedules }));
    const main = JSON.stringify({ ...rest, tests: {}, tasks: {}, includes: ['tasks.json'] }, null, 2);
    const mainPath = join(dir, 'main.psconfig.json');
    writeFileSync(mainPath, main);
    const uri = pathToFileURL(mainPath).toString();
    await client.open(uri, main);
    const r = await expand({ uri });
    assert.equal(r.error, undefined);
    assert.equal(r.combinations.length, 6);
    client.close(uri);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('code lenses: task counts, runs a day, a dashboard per task, the Grafana verdict, an esmond archive opening the explorer on its pair', async () => {
  const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: meshUri } });
  assert.equal(lenses.length, 5);
  const resolved = await Promise.all(lenses.map((l) => client.request<CodeLens>('codeLens/resolve', l)));
  const task = resolved.find((l) => l.command?.command === ServerCommands.showTasks);
  assert.equal(task?.command?.title, '6 tasks for 3 agents');
  assert.deepEqual(task?.command?.arguments, [{ uri: meshUri, task: 'example-task-throughput' }]);
  assert.deepEqual(task?.range.start, positionOf(meshText, '"example-task-throughput": {', 1));
  const archive = resolved.find((l) => l.command?.command === ServerCommands.openArchive);
  assert.ok(archive, JSON.stringify(resolved));
  assert.deepEqual(archive.command?.arguments, [
    {
      url: 'https://archive.perfsonar.net/esmond/perfsonar/archive/',
      task: 'example-task-throughput',
      inputSource: a,
      inputDestination: b,
      eventType: 'throughput',
    },
  ]);
  const dashboard = resolved.find((l) => l.command?.command === ServerCommands.showDashboard);
  assert.equal(dashboard?.command?.title, 'Dashboard');
  assert.deepEqual(dashboard?.command?.arguments, [{ uri: meshUri, task: 'example-task-throughput' }]);
  assert.deepEqual(dashboard?.range.start, task?.range.start);
  // The schedule lens (test/lsp/schedule.test.ts tests its figures): on the task too, opening its host timeline.
  const schedule = resolved.find((l) => l.command?.command === ServerCommands.showSchedule);
  assert.match(schedule?.command?.title ?? '', /^schedule: [\d,.]+ runs a day/);
  assert.deepEqual(schedule?.command?.arguments, [{ uri: meshUri, task: 'example-task-throughput' }]);
  assert.deepEqual(schedule?.range.start, task?.range.start);
  // Complete when listed: the task sets no display-task-name.
  const grafana = lenses.find((l) => l.command?.title.startsWith('Grafana:'));
  assert.equal(grafana?.command?.title, 'Grafana: empty grid (no reference.display-task-name)');
  assert.equal(grafana?.command?.command, ServerCommands.showGrafana);
  assert.deepEqual(grafana?.range.start, task?.range.start);
  // Asked again for the same version (VS Code does each time the editor gains focus), the task lens comes complete:
  // the counts are known, so nothing waits on a resolve while the previous lenses' links are already released.
  const again = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: meshUri } });
  const taskAgain = again.find((l) => l.command?.command === ServerCommands.showTasks);
  assert.deepEqual(taskAgain?.command, task?.command);
  assert.deepEqual(taskAgain?.range, task?.range);
  assert.equal(taskAgain?.data, undefined);
});

test('hover on a variable shows what it expands to in the first combination', async () => {
  const h = await client.request<Hover>('textDocument/hover', {
    textDocument: { uri: meshUri },
    position: positionOf(meshText, '{% address[1] %}', 4),
  });
  const value = (h.contents as { value: string }).value;
  assert.match(value, /address\[1\]/);
  assert.ok(value.includes(`"${b}"`), value);
  assert.ok(value.includes(`${a} → ${b}`), value);
});

test('hover on a group shows what each task using it yields (counts shared with the lenses)', async () => {
  // Resolving a task lens makes sure this version's counts exist; the hover then shows them.
  const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: meshUri } });
  await client.request<CodeLens>('codeLens/resolve', lenses[0]);
  const h = await client.request<Hover>('textDocument/hover', {
    textDocument: { uri: meshUri },
    position: positionOf(meshText, '"example-group-mesh": {', 3),
  });
  const value = (h.contents as { value: string }).value;
  assert.match(value, /Type: `mesh`/);
  assert.match(value, /Task `example-task-throughput`: 6 tasks for 3 agents/);
});

test('a task pScheduler would refuse comes over the wire as failed, with the reason, its parts and its JSON', async () => {
  const uri = 'file:///tmp/psconfig-lsp-expand/refused.json';
  // `duration` is not an ISO 8601 duration: pScheduler's throughput spec refuses it in every combination.
  await client.open(uri, meshText.replace('"duration": "PT30S"', '"duration": "10 seconds"'));
  const r = await expand({ uri });
  assert.equal(r.combinations.length, 6);
  for (const x of r.combinations) {
    assert.match(x.error ?? '', /^pScheduler would refuse this task: test throughput \(schema \d+\): `duration`/);
    assert.equal(x.refused?.[0].part, 'test');
    assert.equal(x.pscheduler?.test.spec.duration, '10 seconds');
  }
  assert.equal(r.tasks[0].count, 0);
  assert.equal(r.tasks[0].refused, 6);
  // the agent-filtered request (sliced from the same run) counts the same way
  const forA = await expand({ uri, agentAddresses: [a] });
  assert.equal(forA.tasks[0].refused, 2);
  assert.equal(forA.tasks[0].count, 0);
  const preview = await client.request<PreviewTasksText>('workspace/executeCommand', {
    command: ServerCommands.previewTasks,
    arguments: [uri],
  });
  assert.equal(preview.tasks.length, 0);
  assert.equal(preview.failed, 6);
  assert.equal(preview.refused, 6);
  assert.match(
    preview.text,
    /✖ host-a\.perfsonar\.net → host-b\.perfsonar\.net {2}pScheduler would refuse this task: /,
  );
  client.close(uri);
});

test('a mesh naming an address twice: lens, hover, counts and preview say 6 tasks, 4 identical, created once', async () => {
  const uri = 'file:///tmp/psconfig-lsp-expand/twice.json';
  const text = meshText.replace(
    '{ "name": "host-c.perfsonar.net" }',
    '{ "name": "host-c.perfsonar.net" },\n                { "name": "host-a.perfsonar.net" }',
  );
  assert.notEqual(text, meshText);
  await client.open(uri, text);
  // Positions a, b, c, a; pairs of two positions with different addresses: 10 combinations, of which b → a, c → a,
  // a → b and a → c come a second time (task_manager.py _need_new_task: created once per agent).
  const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
  const resolved = await Promise.all(lenses.map((l) => client.request<CodeLens>('codeLens/resolve', l)));
  const lens = resolved.find((l) => l.command?.command === ServerCommands.showTasks);
  assert.equal(lens?.command?.title, '6 tasks for 3 agents (+4 identical, created once)');
  const h = await client.request<Hover>('textDocument/hover', {
    textDocument: { uri },
    position: positionOf(text, '"example-group-mesh": {', 3),
  });
  assert.match((h.contents as { value: string }).value, /6 tasks for 3 agents \(\+4 identical, created once\)/);
  const r = await expand({ uri });
  assert.equal(r.combinations.length, 10);
  assert.equal(r.tasks[0].count, 6);
  assert.equal(r.tasks[0].identical, 4);
  assert.deepEqual(
    r.combinations.filter((x) => x.identicalTo).map((x) => x.addressValues.join(' → ')),
    [`${b} → ${a}`, `${c} → ${a}`, `${a} → ${b}`, `${a} → ${c}`],
  );
  // sliced for one agent: its two tasks, its two duplicates
  const forA = await expand({ uri, agentAddresses: [a] });
  assert.equal(forA.tasks[0].count, 2);
  assert.equal(forA.tasks[0].identical, 2);
  const preview = await client.request<PreviewTasksText>('workspace/executeCommand', {
    command: ServerCommands.previewTasks,
    arguments: [uri],
  });
  assert.equal(preview.tasks.length, 6);
  assert.equal(preview.identical, 4);
  assert.equal(preview.failed, 0);
  assert.ok(
    preview.text.includes(
      `    = ${a} → ${b}  identical to example-task-throughput ${a} → ${b} (same task JSON): pSConfig creates it once`,
    ),
    preview.text,
  );
  assert.ok(preview.text.includes(`${a}  2 tasks, 2 identical (created once)`), preview.text);
  client.close(uri);
});
