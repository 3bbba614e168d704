// template/hosts/ matches a host's task as pSConfig's agent does (psconfig client/pscheduler/task.py
// `Task.checksum`): what pScheduler adds (schema, tool, href, detail, schedule.start/until) and private `_` values
// never make two tasks differ; everything else does. The agent's created-by block is left out as well.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checksumKey } from '../../../server/src/template/hosts';

const template = {
  test: { type: 'idle', spec: { host: 'a', duration: 'PT2S', _secret: 'x' } },
  archives: [{ archiver: 'http', data: { url: 'https://a/', _headers: { authorization: 'Basic abc' } } }],
  schedule: { repeat: 'PT20S' },
  reference: { psconfig: { 'created-by': { uuid: '<preview>', 'user-agent': 'psconfig-pscheduler-agent' } } },
};

/** A task's JSON, each part the test edits open to any JSON value. */
interface EditableTask {
  test: { spec: Record<string, unknown> };
  archives: unknown[];
  schedule: Record<string, unknown>;
  reference: Record<string, unknown>;
}

const onHost = {
  schema: 2,
  test: { type: 'idle', spec: { schema: 1, host: 'a', duration: 'PT2S', _secret: null } },
  archives: [{ archiver: 'http', data: { url: 'https://a/', _headers: null } }],
  schedule: { repeat: 'PT20S', start: '2026-01-01T00:00:00Z', until: '2026-01-02T00:00:00Z' },
  tool: 'snooze',
  href: 'https://a/pscheduler/tasks/1',
  detail: { enabled: true, added: '2026-01-01T00:00:00Z' },
  reference: {
    psconfig: { 'created-by': { uuid: 'real', 'user-agent': 'psconfig-pscheduler-agent', 'agent-hostname': 'a' } },
  },
};

test('what pScheduler adds and private values do not count', () => {
  assert.equal(checksumKey(onHost), checksumKey(template));
});

test('a spec value, an archive, the repeat or a user reference does', () => {
  const changed = (f: (t: EditableTask) => void): string => {
    const t = JSON.parse(JSON.stringify(onHost)) as EditableTask;
    f(t);
    return checksumKey(t);
  };
  const base = checksumKey(template);
  assert.notEqual(
    changed((t) => (t.test.spec.duration = 'PT3S')),
    base,
  );
  assert.notEqual(
    changed((t) => (t.archives = [])),
    base,
  );
  assert.notEqual(
    changed((t) => (t.schedule.repeat = 'PT30S')),
    base,
  );
  assert.notEqual(
    changed((t) => (t.reference.mesh = 'old')),
    base,
  );
});
