// ExpansionService in-process (no worker): how many engine runs a burst of requests costs, sharing of identical
// requests in flight, and cancellation of runs superseded by an edit or abandoned by every requester.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { BackgroundRunner, ExpansionService, type Cancellable, type Logger } from '../../server/src/lsp/main';
import { exampleText, exampleUri } from './lsp-client';

const logged: string[] = [];
const log: Logger = { error: (m) => logged.push(m), warn: (m) => logged.push(m), info: () => undefined };
const settings = () => ({ jqPath: process.env.JQ_PATH ?? '/usr/bin/jq' });

let runner: BackgroundRunner;
/** Engine runs started by the last service's runner (in-process: no worker). */
const engineRuns = (): number => runner.localEngineRuns;

function service(current: Map<string, TextDocument> = new Map()): ExpansionService {
  runner = new BackgroundRunner(undefined, log);
  return new ExpansionService(settings, runner, (uri) => current.get(uri));
}

class Token implements Cancellable {
  isCancellationRequested = false;
  private listeners: (() => void)[] = [];
  onCancellationRequested(l: () => void): void {
    this.listeners.push(l);
  }
  cancel(): void {
    this.isCancellationRequested = true;
    this.listeners.forEach((l) => l());
  }
}

test('lenses, the tree (limited) and per-agent requests of one version cost one engine run', async () => {
  const name = 'psconfig--example-2-testbed.json';
  const doc = TextDocument.create(exampleUri(name), 'psconfig', 1, exampleText(name));
  const svc = service();
  const [full, limited, agent, again] = await Promise.all([
    svc.firstCombinations(doc),
    svc.expand(doc, { uri: doc.uri, limit: 10 }),
    svc.expand(doc, { uri: doc.uri, agentAddresses: ['nothing.example'] }),
    svc.expand(doc, { uri: doc.uri }),
  ]);
  assert.equal(engineRuns(), 1);
  // Lenses and hovers get the first combination of each task that has task JSON (pScheduler's refusals included:
  // their URLs and values are real); the request gets all of them.
  assert.deepEqual(full.tasks, again.tasks);
  const json = (c: (typeof again.combinations)[number]): boolean => c.pscheduler !== undefined;
  assert.deepEqual(
    full.combinations,
    again.combinations.filter((c, i, all) => json(c) && all.findIndex((x) => json(x) && x.task === c.task) === i),
  );
  assert.ok(again.combinations.length > full.combinations.length);
  assert.equal(limited.combinations.length, 10);
  assert.equal(limited.truncated, true);
  assert.deepEqual(agent.combinations, []);
  for (const a of again.agents) await svc.expand(doc, { uri: doc.uri, agentAddresses: [a], limit: 10_000 });
  assert.equal(engineRuns(), 1);
  assert.deepEqual(logged, []);
});

test('identical requests that cannot be cut from the full run share one filtered run', async () => {
  // The requesting-agent class data source depends on the agent addresses themselves.
  const name = 'perl-shared--client-psconfig-addressclasses.json';
  const doc = TextDocument.create(exampleUri(name), 'psconfig', 1, exampleText(name));
  const svc = service();
  const params = { uri: doc.uri, agentAddresses: ['10.0.0.1'] };
  const [a, b] = await Promise.all([svc.expand(doc, params), svc.expand(doc, params)]);
  assert.equal(engineRuns(), 2); // the full run and one filtered run
  assert.equal(a, b);
});

test('a run superseded by an edit is cancelled and its requester answered from the new version', async () => {
  const name = 'psconfig--example-1-simple.json';
  const text = exampleText(name);
  const current = new Map<string, TextDocument>();
  const v1 = TextDocument.create(exampleUri(name), 'psconfig', 1, text);
  current.set(v1.uri, v1);
  const svc = service(current);
  const first = svc.firstCombinations(v1);
  const request = svc.expand(v1, { uri: v1.uri, limit: 5 });
  const v2 = TextDocument.update(v1, [{ text: text.replace(/\s*$/, '\n') }], 2);
  current.set(v2.uri, v2);
  const second = svc.firstCombinations(v2);
  assert.equal((await first).cancelled, true);
  const answered = await request;
  assert.equal(answered.error, undefined);
  assert.equal(answered.version, 2);
  assert.equal(answered.combinations.length, 5);
  assert.equal((await second).version, 2);
  // One engine run, version 2's, shared by the request: version 1's job was cancelled before its turn came (the
  // edit is synchronous, the job waits for the settings), and a cancelled job starts no run (worker/dispatcher.ts).
  assert.equal(engineRuns(), 1);
});

test('a filtered run nobody waits for any more is cancelled', async () => {
  const name = 'perl-shared--client-psconfig-addressclasses.json';
  const doc = TextDocument.create(exampleUri(name), 'psconfig', 1, exampleText(name));
  const svc = service();
  await svc.firstCombinations(doc);
  const t1 = new Token();
  const t2 = new Token();
  const params = { uri: doc.uri, agentAddresses: ['10.0.0.1'] };
  const a = svc.expand(doc, params, t1);
  const b = svc.expand(doc, params, t2);
  t1.cancel();
  t2.cancel();
  assert.equal((await a).cancelled, true);
  assert.equal((await b).cancelled, true);
});
