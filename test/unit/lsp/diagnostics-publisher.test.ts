// The publisher's order of passes, with a runner whose passes end when the test says (the real server's timing,
// test/lsp/includes.test.ts, only sometimes reaches these cases: under load, when a check of the including template
// is still running as its included file changes again). A change of an included file leaves the template's version
// as it was: the publisher must still check again, and what the stale pass finds later must not be published.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection, PublishDiagnosticsParams } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticsPublisher } from '../../../server/src/lsp/main';
import {
  CancelFlag,
  type DiagnosticsJob,
  type DiagnosticsOutcome,
  type EarlyDiagnostics,
  type ScheduleDiagnosticsOutcome,
} from '../../../server/src/lsp/jobs';
import type { TemplateDiagnostic } from '../../../server/src/template/rules/diagnostic';

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (v: T) => void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const problem = (code: TemplateDiagnostic['code']): TemplateDiagnostic => ({
  code,
  severity: 'error',
  message: code,
  start: 0,
  end: 1,
});

/**
 * What the publisher has queued has run: its timers of 0 ms (the delay here; a timer of the same delay queued after
 * them fires after them), the promise chains they start (drained before the next timer), then a turn of the event
 * loop. For what must not have happened; what must happen is awaited with `when`. Event-loop order, not time.
 */
async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 0));
  await new Promise((r) => setImmediate(r));
}

const outcome = (diagnostics: TemplateDiagnostic[], cancelled = false): DiagnosticsOutcome =>
  cancelled
    ? { kind: 'cancelled' }
    : {
        kind: 'checked',
        diagnostics,
        omitted: { error: 0, warning: 0, information: 0, hint: 0 },
        includePaths: [],
        later: Promise.resolve([]),
      };

/** A publisher over one open document; each pass (and each schedule step) waits for the test to end it. */
function setup(earlyMinChars = Infinity) {
  const doc = TextDocument.create('file:///t/main.psconfig.json', 'psconfig', 1, '{}');
  const published: PublishDiagnosticsParams[] = [];
  const passes: {
    cancel: CancelFlag;
    end: Deferred<DiagnosticsOutcome>;
    /** Asked for the early phase, and where it goes (as the worker's client hands it on). */
    early: boolean;
    sink: ((v: EarlyDiagnostics) => void) | undefined;
  }[] = [];
  const schedules: { cancel: CancelFlag; end: Deferred<ScheduleDiagnosticsOutcome> }[] = [];
  /** Waiters for a condition, looked at again each time the publisher calls out. */
  const waiting: { ready: () => boolean; go: () => void }[] = [];
  const when = (ready: () => boolean): Promise<void> =>
    ready() ? Promise.resolve() : new Promise((go) => waiting.push({ ready, go }));
  const tick = (): void => {
    for (const w of waiting.splice(0)) (w.ready() ? w.go : () => waiting.push(w))();
  };
  const connection = {
    sendDiagnostics: async (p: PublishDiagnosticsParams) => {
      published.push(p);
      tick();
    },
  } as unknown as Connection;
  // The worker's client: only the diagnostics job is sent (the schedule's findings come through the hook below).
  const runner = {
    send: (_job: 'diagnostics', arg: DiagnosticsJob, sink?: (v: EarlyDiagnostics) => void) => {
      const end = deferred<DiagnosticsOutcome>();
      passes.push({ cancel: new CancelFlag(arg.cancel), end, early: arg.early === true, sink });
      tick();
      return end.promise;
    },
  } as never;
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const publisher = new DiagnosticsPublisher(
    connection,
    log,
    (uri) => (uri === doc.uri ? doc : undefined),
    0,
    runner,
    () => ({ path: undefined, trusted: true }) as never,
    () => Promise.resolve(),
    { scopeFor: () => ({ remote: 'untrusted' }) as never, record: () => false },
    () => undefined,
    (_doc, cancel) => {
      const end = deferred<ScheduleDiagnosticsOutcome>();
      schedules.push({ cancel, end });
      tick();
      return end.promise;
    },
    () => ({}),
    earlyMinChars,
  );
  const codesOf = (p: PublishDiagnosticsParams | undefined): string[] =>
    (p?.diagnostics ?? []).map((d) => String(d.code));
  return { doc, publisher, published, passes, schedules, when, codesOf };
}

test(
  'a check asked for while one runs, for the same version (an included file changed), runs after it',
  { timeout: 30_000 },
  async () => {
    const s = setup();
    s.publisher.queuePass(s.doc);
    await s.when(() => s.passes.length === 1);
    // The included file changes while the first pass runs: that pass is cancelled, and the next one waits for it.
    s.publisher.queuePass(s.doc);
    assert.ok(s.passes[0].cancel.cancelled);
    await settle();
    assert.equal(s.passes.length, 1, 'one pass per document at a time');
    s.passes[0].end.resolve(outcome([], true));
    await s.when(() => s.passes.length === 2); // the check asked for during the first pass runs once it ends
    s.passes[1].end.resolve(outcome([problem('psconfig/unknown-test')]));
    await s.when(() => s.published.length === 1);
    assert.deepEqual(s.codesOf(s.published[0]), ['psconfig/unknown-test']);
    s.publisher.dispose();
  },
);

test(
  'the schedule’s findings of a pass cancelled by an include change are not published over the next pass',
  { timeout: 30_000 },
  async () => {
    const s = setup();
    s.publisher.queuePass(s.doc);
    await s.when(() => s.passes.length === 1);
    s.passes[0].end.resolve(outcome([]));
    await s.when(() => s.schedules.length === 1);
    assert.deepEqual(s.codesOf(s.published[0]), []);
    // The included file changes during the simulation: the next pass publishes the error the change made…
    s.publisher.queuePass(s.doc);
    assert.ok(s.schedules[0].cancel.cancelled, 'the simulation of the stale pass is told to stop');
    await s.when(() => s.passes.length === 2);
    s.passes[1].end.resolve(outcome([problem('psconfig/unknown-test')]));
    await s.when(() => s.published.length === 2);
    // …and the stale simulation, ending with findings anyway (it was done before it looked at its flag), is dropped.
    s.schedules[0].end.resolve({ kind: 'found', diagnostics: [problem('psconfig/schedule-runs-lost')] });
    await s.when(() => s.schedules.length === 2);
    s.schedules[1].end.resolve({ kind: 'found', diagnostics: [] });
    await settle();
    assert.equal(s.published.length, 2, s.published.map((p) => s.codesOf(p).join(',')).join(' | '));
    assert.deepEqual(s.codesOf(s.published[1]), ['psconfig/unknown-test']);
    s.publisher.dispose();
  },
);

const earlyOf = (diagnostics: TemplateDiagnostic[]): EarlyDiagnostics => ({
  diagnostics,
  omitted: { error: 0, warning: 0, information: 0, hint: 0 },
});
const hint = (code: TemplateDiagnostic['code']): TemplateDiagnostic => ({ ...problem(code), severity: 'hint' });

test('the early phase of the current version is published before the answer, which replaces it', async () => {
  const s = setup(0);
  s.publisher.queuePass(s.doc);
  await s.when(() => s.passes.length === 1);
  assert.equal(s.passes[0].early, true, 'asked for from the threshold on');
  s.passes[0].sink?.(earlyOf([problem('psconfig/unknown-group')]));
  await s.when(() => s.published.length === 1);
  assert.deepEqual(s.codesOf(s.published[0]), ['psconfig/unknown-group']);
  assert.equal(s.published[0].version, 1);
  s.passes[0].end.resolve(outcome([problem('psconfig/unknown-group'), hint('psconfig/unused-definition')]));
  await s.when(() => s.published.length === 2);
  assert.deepEqual(s.codesOf(s.published[1]), ['psconfig/unknown-group', 'psconfig/unused-definition']);
  s.publisher.dispose();
});

test('below the threshold no early phase is asked for', async () => {
  const s = setup(3); // the document is "{}": 2 characters
  s.publisher.queuePass(s.doc);
  await s.when(() => s.passes.length === 1);
  assert.equal(s.passes[0].early, false);
  s.passes[0].end.resolve(outcome([]));
  await s.when(() => s.published.length === 1);
  s.publisher.dispose();
});

test('an early phase of a version no longer current, or of a cancelled pass, is not published', async () => {
  const s = setup(0);
  s.publisher.queuePass(s.doc);
  await s.when(() => s.passes.length === 1);
  // An edit: version 2 (the next pass waits for this one).
  TextDocument.update(s.doc, [{ text: '{ }' }], 2);
  s.publisher.queuePass(s.doc);
  assert.ok(s.passes[0].cancel.cancelled);
  s.passes[0].sink?.(earlyOf([problem('psconfig/unknown-group')]));
  await settle();
  assert.equal(s.published.length, 0, 'nothing of version 1');
  s.passes[0].end.resolve(outcome([], true));
  await s.when(() => s.passes.length === 2);
  s.passes[1].sink?.(earlyOf([problem('psconfig/unknown-test')]));
  await s.when(() => s.published.length === 1);
  assert.equal(s.published[0].version, 2);
  assert.deepEqual(s.codesOf(s.published[0]), ['psconfig/unknown-test']);
  s.passes[1].end.resolve(outcome([problem('psconfig/unknown-test')]));
  await s.when(() => s.published.length === 2);
  s.publisher.dispose();
});

test('an early phase showing nothing the last publication lacks is not published', async () => {
  const s = setup(0);
  s.publisher.queuePass(s.doc);
  await s.when(() => s.passes.length === 1);
  s.passes[0].end.resolve(outcome([problem('psconfig/unknown-group'), hint('psconfig/unused-definition')]));
  await s.when(() => s.published.length === 1);
  TextDocument.update(s.doc, [{ text: '{ }' }], 2);
  s.publisher.queuePass(s.doc);
  await s.when(() => s.passes.length === 2);
  // The same error again: the hints stay on screen until the full answer.
  s.passes[1].sink?.(earlyOf([problem('psconfig/unknown-group')]));
  await settle();
  assert.equal(s.published.length, 1);
  s.passes[1].end.resolve(outcome([problem('psconfig/unknown-group'), hint('psconfig/unused-definition')]));
  await s.when(() => s.published.length === 2);
  assert.equal(s.published[1].version, 2);
  s.publisher.dispose();
});
