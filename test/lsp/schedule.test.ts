// The simulated schedule in the editor, against the bundled server process: the psconfig/schedule request (computed
// in the worker on the document's one expansion, bounded, following edits), its findings as diagnostics, the quick
// fixes the re-simulation showed to fit, the schedule lens and the task hover's runs a day.
//
// The template: three hosts in a mesh (6 pScheduler tasks per template task, each host in 4 of them: 2 as source,
// 2 as destination).
// - `busy`: iperf3 throughput (10 s test → 19 s stored run: tools' duration programs, test/unit/schedule) every
//   minute with a minute of slip. Each host would need 4 × 19 s of every 60 s exclusively: 127 %, so runs are lost,
//   and every host is over an exclusive load of 1. A 2-minute repeat needs 4 × 19 / 120 = 63 %: it can fit.
// - `long`: throughput of 90 s once a day: over the default remote limit of 60 s (pscheduler_limits.conf). Its runs
//   need 99 s free on both hosts at once among `busy`'s; with sliprand and pScheduler's NULL-priority defect (its
//   proposals ignore pending runs, the insert finds them) some of its tries land in a gap and some give up.
// - `pings`: rtt every 10 minutes (class background: never in conflict), all fit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeAction, CodeLens, Diagnostic, Hover } from 'vscode-languageserver-protocol';
import {
  ScheduleRequest,
  ServerCommands,
  type CompareTasksResult,
  type ExpandTasksResult,
  type LensCommandResult,
  type ScheduleParams,
  type ScheduleResult,
} from '../../common/protocol';
import { applyEdits, LspClient, positionOf, serverForSuite, messageText } from './lsp-client';

const template = {
  addresses: {
    a: { address: 'a.example.net' },
    b: { address: 'b.example.net' },
    c: { address: 'c.example.net' },
  },
  groups: { mesh: { type: 'mesh', addresses: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } },
  tests: {
    bw: { type: 'throughput', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } },
    'long-bw': {
      type: 'throughput',
      spec: { source: '{% address[0] %}', dest: '{% address[1] %}', duration: 'PT90S' },
    },
    ping: { type: 'rtt', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } },
  },
  schedules: {
    'every-minute': { repeat: 'PT1M', slip: 'PT1M' },
    daily: { repeat: 'P1D', slip: 'PT1H', sliprand: true },
    often: { repeat: 'PT10M', slip: 'PT5M' },
  },
  tasks: {
    busy: { group: 'mesh', test: 'bw', schedule: 'every-minute' },
    long: { group: 'mesh', test: 'long-bw', schedule: 'daily' },
    pings: { group: 'mesh', test: 'ping', schedule: 'often' },
  },
};
const text = JSON.stringify(template, null, 2);
const uri = 'file:///tmp/psconfig-lsp-schedule/mesh.json';

let client: LspClient;
// The lenses wait for their figures whatever the machine's load (schedule-lens-wait.test.ts tests the bound).
serverForSuite((x) => (client = x), { showDocument: true, env: { PSCONFIG_SCHEDULE_LENS_WAIT_MS: '120000' } }, [
  [uri, text],
]);

const schedule = (params: ScheduleParams): Promise<ScheduleResult> =>
  client.request<ScheduleResult>(ScheduleRequest.method, params);

const isSchedule = (d: Diagnostic): boolean =>
  typeof d.code === 'string' && /schedule|remote-limits|host-overloaded/.test(d.code);

/** The schedule's diagnostics of the open document (published after the other checks). */
function scheduleDiagnostics(of = uri): Promise<Diagnostic[]> {
  return client
    .diagnosticsWhere(of, (ds) => ds.some((d) => d.code === 'psconfig/schedule-runs-lost'), 'schedule diagnostics')
    .then((ds) => ds.filter(isSchedule));
}

test('psconfig/schedule: loads, per-task counts and runs a day, from the worker', async () => {
  const r = await schedule({ uri });
  assert.equal(r.error, undefined);
  assert.equal(r.version, 1);
  assert.ok(r.span && Date.parse(r.span.end) - Date.parse(r.span.start) === 2 * 86_400_000, 'two simulated days');
  assert.deepEqual(
    r.hosts.map((h) => h.address),
    ['a.example.net', 'b.example.net', 'c.example.net'],
  );
  for (const h of r.hosts) {
    // 4 busy runs of 19 s a minute, 4 long runs of 99 s a day (90 s + iperf3's overhead, see the model's tests).
    assert.ok(h.exclusiveLoad > 1.26 && h.exclusiveLoad < 1.3, `${h.address}: ${h.exclusiveLoad}`);
    // busy and long: 2 as source, 2 as destination each; pings (rtt, single-ended): 2 as source.
    assert.equal(h.tasks, 10);
  }
  assert.equal(r.tasks.length, 18);
  assert.equal(r.runs, undefined, 'runs only when asked');
  const busy = r.templateTasks.find((t) => t.task === 'busy')!;
  assert.equal(busy.combinations, 6);
  assert.equal(busy.wantedPerDay, 6 * 1440);
  assert.ok(busy.scheduledPerDay < busy.wantedPerDay * 0.8, `lost runs: ${busy.scheduledPerDay}`);
  assert.equal(busy.losing, 6);
  assert.deepEqual(busy.tools, ['iperf3']);
  assert.deepEqual(busy.classes, ['exclusive']);
  const pings = r.templateTasks.find((t) => t.task === 'pings')!;
  assert.equal(pings.wantedPerDay, 6 * 144);
  // Each agent leads the tasks whose source it is: its own host.
  assert.deepEqual(
    r.agents.map((a) => [a.agent, a.hosts]),
    [
      ['a.example.net', ['a.example.net']],
      ['b.example.net', ['b.example.net']],
      ['c.example.net', ['c.example.net']],
    ],
  );
  assert.ok(r.agents.every((a) => a.exclusiveLoad > 1.26));
});

test('psconfig/schedule with runs: a task’s hosts first, and the answer bounded with what it left out', async () => {
  const r = await schedule({ uri, runs: true, task: 'pings', noTasks: true });
  assert.deepEqual(r.tasks, []);
  assert.ok(r.runs && r.runs.length > 0);
  // Every run in the span, in start order, states and reasons in pScheduler's words.
  const starts = r.runs.map((x) => Date.parse(x.start));
  assert.deepEqual(
    starts,
    [...starts].sort((x, y) => x - y),
  );
  const nonstart = r.runs.filter((x) => x.state === 'nonstart');
  assert.ok(nonstart.length > 0);
  assert.ok(nonstart.every((x) => typeof x.reason === 'string' && x.reason.length > 0));
  // 3 hosts × (busy 2 × 1440 × 2 + …): about 35,000 runs in two days; every host fits in the answer's bound.
  assert.equal(r.runsLeftOut, undefined);
  const only = await schedule({ uri, runs: true, hosts: ['A.example.net'] });
  assert.deepEqual(
    only.hosts.map((h) => h.address),
    ['a.example.net'],
  );
  assert.ok(only.runs!.every((x) => x.participants.includes('a.example.net')));
  assert.ok(only.runs!.length < r.runs.length);
});

test('findings as warnings: runs lost (how many, who took the slots), hosts over a load of 1, remote limits', async () => {
  const ds = await scheduleDiagnostics();
  const byCode = (code: string) => ds.filter((d) => d.code === code);
  const lost = byCode('psconfig/schedule-runs-lost');
  assert.equal(lost.length, 2);
  assert.ok(lost.every((d) => d.severity === 2));
  // On the task's name.
  assert.deepEqual(
    lost.map((d) => d.range.start),
    [positionOf(text, '"busy"', 1), positionOf(text, '"long"', 1)],
  );
  assert.match(messageText(lost[0].message), /of 17,280 runs of 'busy' would run in 2 simulated days/);
  assert.match(messageText(lost[0].message), /Their slots went to 'busy' /);
  assert.match(messageText(lost[1].message), /^\d+ of 12 runs of 'long' would run in 2 simulated days/);
  assert.match(
    messageText(lost[1].message),
    /runs? a day lost in steady state, with pSConfig's agent renewing its tasks/,
  );
  assert.match(messageText(lost[1].message), /Their slots went to 'busy' /);
  // Each host over an exclusive load of 1, on its address object.
  const hosts = byCode('psconfig/host-overloaded');
  assert.equal(hosts.length, 3);
  assert.deepEqual(
    hosts.map((d) => d.range.start),
    ['"a"', '"b"', '"c"'].map((k) => positionOf(text, k, 1)),
  );
  // 90 s of throughput: on the spec's duration.
  const limits = byCode('psconfig/throughput-remote-limits');
  assert.equal(limits.length, 1);
  assert.deepEqual(limits[0].range.start, positionOf(text, '"PT90S"'));
  assert.match(messageText(limits[0].message), /60 seconds or less/);
  // A repeat of a minute with a minute of slip: pScheduler cuts the slip to the repeat less the run.
  // An information on the schedule's slip (the second "PT1M" of the text).
  const slip = byCode('psconfig/schedule-slip-cut');
  assert.equal(slip.length, 1);
  assert.equal(slip[0].severity, 3);
  assert.deepEqual(slip[0].range.start, positionOf(text, '"PT1M"', 0, 1));
  assert.match(messageText(slip[0].message), /pScheduler cuts the slip to 41 s/);
  // Nothing about the task whose runs all fit.
  assert.ok(!ds.some((d) => messageText(d.message).includes("'pings'")), JSON.stringify(ds.map((d) => d.message)));
});

test('quick fixes: the schedule changes the re-simulation showed to fit, applied to the schedule object', async () => {
  const ds = await scheduleDiagnostics();
  const lost = ds.find((d) => d.code === 'psconfig/schedule-runs-lost')!;
  const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
    textDocument: { uri },
    range: lost.range,
    context: { diagnostics: [lost] },
  });
  assert.ok(actions.length > 0, 'at least one fix fits');
  assert.equal(actions[0].isPreferred, true);
  for (const a of actions) {
    assert.match(a.title, /in schedule "every-minute"/);
    const fixed = applyEdits(text, a.edit!.changes![uri]);
    const parsed = JSON.parse(fixed) as typeof template;
    // Only the schedule changes.
    assert.deepEqual({ ...parsed, schedules: template.schedules }, template);
    assert.notDeepEqual(parsed.schedules['every-minute'], template.schedules['every-minute']);
  }
  // Applied, the template fits: the server (re-simulating the new version) no longer reports lost runs of 'busy'.
  const fixedText = applyEdits(text, actions[0].edit!.changes![uri]);
  const fixedUri = 'file:///tmp/psconfig-lsp-schedule/fixed.json';
  await client.open(fixedUri, fixedText);
  const r = await schedule({ uri: fixedUri });
  const busy = r.templateTasks.find((t) => t.task === 'busy')!;
  assert.equal(
    busy.losing,
    0,
    JSON.stringify((JSON.parse(fixedText) as { schedules: Record<string, unknown> }).schedules['every-minute']),
  );
  client.close(fixedUri);
});

test('the schedule lens: runs a day, opening the host timeline (a text file here) on the task', async () => {
  const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
  const resolved = await Promise.all(
    lenses.map((l) => (l.command ? Promise.resolve(l) : client.request<CodeLens>('codeLens/resolve', l))),
  );
  const own = resolved.filter((l) => l.command?.command === ServerCommands.showSchedule);
  assert.equal(own.length, 3, 'one per task');
  const titles = own.map((l) => l.command!.title);
  assert.match(titles[0], /^schedule: [\d,.]+ of 8,640 runs a day fit \(6 of 6 tasks lose runs\)$/);
  assert.match(titles[1], /^schedule: [\d.]+ of 6 runs a day fit \([1-6] of 6 tasks lose runs\)$/);
  assert.equal(titles[2], 'schedule: 864 runs a day, all fit');
  assert.deepEqual(own[0].command!.arguments, [{ uri, task: 'busy' }]);
  const advertised = client.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
  assert.ok(advertised.includes(ServerCommands.showSchedule));
  const r = await client.request<LensCommandResult>('workspace/executeCommand', {
    command: ServerCommands.showSchedule,
    arguments: own[0].command!.arguments,
  });
  assert.equal(r.shown, 'document');
  assert.match(r.message, /^busy: [\d,.]+ of 8,640 runs a day fit/);
});

test('the task hover: runs a day per pScheduler task and in all, the run, the class', async () => {
  await schedule({ uri, noTasks: true }); // as the lens does: the hover shows what an answer brought, never waits
  const h = await client.request<Hover>('textDocument/hover', {
    textDocument: { uri },
    position: positionOf(text, '"pings"', 1),
  });
  const md = (h.contents as { value: string }).value;
  assert.match(md, /\*\*Schedule\*\* \(simulated\): 144 runs a day per pScheduler task, 864 in all/);
  assert.match(md, /All fit\./);
  assert.match(md, /Each run takes 10 s \(`ping`\), class `background`\./);
});

test('an edit: the next version is simulated, the request answers for it', async () => {
  // Every 2 hours with an hour of slip and sliprand: 4 x 19 s of a host's 2 h, and room to move off the start the
  // agent's shared untils give one agent's tasks.
  const edited = text
    .replace('"repeat": "PT1M"', '"repeat": "PT2H"')
    .replace('"slip": "PT1M"', '"slip": "PT1H",\n      "sliprand": true');
  const editUri = 'file:///tmp/psconfig-lsp-schedule/edited.json';
  await client.open(editUri, text);
  const before = await schedule({ uri: editUri });
  assert.equal(before.templateTasks.find((t) => t.task === 'busy')!.wantedPerDay, 8640);
  await client.change(editUri, [{ text: edited }]);
  const after = await schedule({ uri: editUri });
  assert.equal(after.version, 2);
  assert.equal(after.templateTasks.find((t) => t.task === 'busy')!.wantedPerDay, 72);
  assert.equal(after.templateTasks.find((t) => t.task === 'busy')!.losing, 0);
  // The lost-runs warning goes with the version that had it.
  await client.diagnosticsWhere(
    editUri,
    (ds) => !ds.some((d) => d.code === 'psconfig/schedule-runs-lost') && client.version(editUri) === 2,
    'no lost runs',
  );
  client.close(editUri);
});

test('a file that is not open is simulated from disk; a missing one says why', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'psconfig-schedule-'));
  try {
    const file = join(dir, 'mesh.json');
    writeFileSync(file, text);
    const r = await schedule({ uri: pathToFileURL(file).toString() });
    assert.equal(r.error, undefined);
    assert.equal(r.version, null);
    assert.equal(r.templateTasks.length, 3);
    const missing = await schedule({ uri: pathToFileURL(join(dir, 'none.json')).toString() });
    assert.match(missing.error ?? '', /^Cannot read .*none\.json/);
    assert.deepEqual(missing.hosts, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an edit stops the simulation of the version before it, even while the worker is inside it', async () => {
  // 60 addresses, throughput every minute: 3,540 pScheduler tasks, millions of tries over the warm-up and two days.
  const n = 60;
  const addresses: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) addresses[`h${i}`] = { address: `h${i}.example.net` };
  const big = {
    ...template,
    addresses,
    groups: { mesh: { type: 'mesh', addresses: Object.keys(addresses).map((name) => ({ name })) } },
    tasks: { busy: template.tasks.busy },
  };
  const bigText = JSON.stringify(big, null, 2);
  const bigUri = 'file:///tmp/psconfig-lsp-schedule/big.json';
  await client.open(bigUri, bigText);
  // The full expansion of version 1, which the simulation shares (expansion-shared.ts): once a preview cut from it
  // is answered, a schedule request of version 1 finds it made and goes straight into the simulation.
  const preview = await client.request<ExpandTasksResult>('psconfig/expandTasks', { uri: bigUri, limit: 1 });
  assert.equal(preview.version, 1);
  const first = schedule({ uri: bigUri, noTasks: true });
  // The edit right behind the request: the server reads it after the request, which it answers for version 1.
  const edited = bigText.replace('"repeat": "PT1M"', '"repeat": "P1D"');
  const changed = client.change(bigUri, [{ text: edited }]);
  const stopped = await first;
  assert.equal(stopped.version, 1);
  assert.equal(stopped.cancelled, true);
  // The edited version (one run a day each) is simulated in turn.
  const next = await schedule({ uri: bigUri, noTasks: true });
  assert.equal(next.version, 2);
  assert.equal(next.error, undefined);
  assert.equal(next.templateTasks[0].wantedPerDay, n * (n - 1));
  await changed; // its diagnostics, before the document goes
  client.close(bigUri);
});

test('a comparison asked while the schedule is simulated is answered first: the simulation waits in the worker', async () => {
  // 24 hosts, throughput every minute: 552 pScheduler tasks, seconds of simulation. The schedule request reaches the
  // worker first; the comparison right after it. Before the simulation ran in slices (job-priority.ts), it held the
  // worker until it ended and the comparison was answered after it.
  const n = 24;
  const addresses: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) addresses[`h${i}`] = { address: `h${i}.example.net` };
  const mesh = (names: string[]) => ({
    ...template,
    addresses,
    groups: { mesh: { type: 'mesh', addresses: names.map((name) => ({ name })) } },
    tasks: { busy: template.tasks.busy },
  });
  const names = Object.keys(addresses);
  const meshUri = 'file:///tmp/psconfig-lsp-schedule/priority.json';
  await client.open(meshUri, JSON.stringify(mesh(names), null, 2));
  const answered: string[] = [];
  const simulated = schedule({ uri: meshUri, noTasks: true }).then((r) => {
    answered.push('schedule');
    return r;
  });
  const compared = client
    .request<CompareTasksResult>('psconfig/compareTasks', {
      uri: meshUri,
      base: { text: JSON.stringify(mesh(names.slice(1)), null, 2), source: 'HEAD' },
    })
    .then((r) => {
      answered.push('compare');
      return r;
    });
  const [s, c] = await Promise.all([simulated, compared]);
  assert.deepEqual(answered, ['compare', 'schedule']);
  assert.equal(c.error, undefined);
  assert.equal(c.diff?.summary.added, 2 * (n - 1), 'h0 joined the mesh: its tasks to and from the 23 others');
  // The order is the point. On a heavily loaded machine the simulation may then reach its time limit
  // (SCHEDULE_LIMIT_MS, seen at a load of 10 on 2 cores): that answer comes after the comparison too, and says so.
  if (s.error !== undefined) {
    assert.match(s.error, /^The simulation of 552 tasks was stopped after \d+ s/);
  } else {
    // 1,440 runs a day per pScheduler task, and at a renewal one more of the old task when its grid has a point
    // before the until where its successor's grid starts.
    const wanted = s.templateTasks[0].wantedPerDay;
    assert.ok(wanted >= n * (n - 1) * 1440 && wanted <= n * (n - 1) * 1441, String(wanted));
  }
  client.close(meshUri);
});
