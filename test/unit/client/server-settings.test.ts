// Settings forwarded to the language server and typed agent addresses (client/src/language/server-settings.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  agentAddressList,
  parseAgentAddressInput,
  serverSettingsFrom,
} from '../../../client/src/language/server-settings';

const getter =
  (values: Record<string, unknown>) =>
  (key: string): unknown =>
    values[key];

test('VS Code settings map to the flat ServerSettings', () => {
  assert.deepEqual(
    serverSettingsFrom(
      getter({
        'jq.path': ' /usr/bin/jq ',
        'includes.allowRemote': true,
        'includes.directories': ['/srv/psconfig', 3, ''],
        'preview.agentAddresses': ['a.example', 'b'],
      }),
    ),
    {
      jqPath: '/usr/bin/jq',
      includesAllowRemote: true,
      includesDirectories: ['/srv/psconfig'],
      agentAddresses: ['a.example', 'b'],
    },
  );
});

test('defaults and wrong types leave keys out, agent list always present', () => {
  assert.deepEqual(
    serverSettingsFrom(getter({ 'jq.path': '', 'includes.allowRemote': 'yes', 'preview.agentAddresses': 'a' })),
    { agentAddresses: [] },
  );
});

test('agent address lists drop blanks, non-strings and duplicates', () => {
  assert.deepEqual(agentAddressList([' a ', '', 3, 'b', 'a', null]), ['a', 'b']);
  assert.deepEqual(agentAddressList(undefined), []);
});

test('typed match addresses split on commas and whitespace', () => {
  assert.deepEqual(parseAgentAddressInput('10.0.0.1, host.example  ::1,,'), ['10.0.0.1', 'host.example', '::1']);
  assert.deepEqual(parseAgentAddressInput('  '), []);
});

test('an untrusted (restricted) workspace is sent as workspaceTrusted: false', () => {
  assert.deepEqual(serverSettingsFrom(getter({}), false), { workspaceTrusted: false, agentAddresses: [] });
});
