// Client settings → ServerSettings: the flat shape the extension sends and VS Code's nested view of `psconfig`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveJqPath, jqConfigOf, toServerSettings } from '../../server/src/lsp/main';

test('flat ServerSettings pass through', () => {
  assert.deepEqual(toServerSettings({ jqPath: '/opt/jq', includesAllowRemote: true, agentAddresses: ['a.net', ''] }), {
    jqPath: '/opt/jq',
    includesAllowRemote: true,
    agentAddresses: ['a.net'],
  });
});

test("VS Code's nested section is mapped", () => {
  assert.deepEqual(
    toServerSettings({
      jq: { path: ' /usr/bin/jq ' },
      includes: { allowRemote: false, directories: ['/srv/inc', 'relative/not/taken', 7] },
      preview: { agentAddresses: ['x'] },
      files: ['**/*.json'],
    }),
    {
      jqPath: '/usr/bin/jq',
      includesAllowRemote: false,
      includesDirectories: ['/srv/inc'],
      agentAddresses: ['x'],
    },
  );
});

test('nonsense becomes defaults; the jq path falls back to the server default (JQ_PATH)', () => {
  assert.deepEqual(toServerSettings(null), {});
  assert.deepEqual(toServerSettings({ jq: { path: 3 }, preview: 'x' }), {});
  assert.equal(effectiveJqPath({}, '/from/env/jq'), '/from/env/jq');
  assert.equal(effectiveJqPath({ jqPath: '/set/jq' }, '/from/env/jq'), '/set/jq');
  assert.equal(effectiveJqPath({}, ''), undefined);
});

test('jq limits and workspace trust: a restricted workspace gets a runner that never starts jq', () => {
  const s = toServerSettings({
    jq: { path: '/usr/bin/jq', memoryLimitMb: 64, maxConcurrent: 3 },
    workspaceTrusted: false,
  });
  assert.deepEqual(s, { jqPath: '/usr/bin/jq', jqMemoryLimitMb: 64, jqMaxConcurrent: 3, workspaceTrusted: false });
  const restricted = jqConfigOf(s);
  assert.match(restricted.disabled ?? '', /restricted workspace/);
  assert.equal(jqConfigOf(toServerSettings({ jq: { path: '/usr/bin/jq' } })).disabled, undefined);
  // Nonsense limits are dropped rather than passed on.
  assert.deepEqual(toServerSettings({ jq: { memoryLimitMb: -1, maxConcurrent: 0.5 } }), {});
});
