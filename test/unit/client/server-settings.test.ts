// Settings forwarded to the language server and typed agent addresses (client/src/language/server-settings.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  agentAddressList,
  MACHINE_SETTING_KEYS,
  parseAgentAddressInput,
  serverSettingsFrom,
} from '../../../client/src/language/server-settings';
import { repoRoot } from '../../fixtures';

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

test('jq.path and include directories set by a workspace are ignored: only the user value counts', () => {
  const workspace = getter({ 'jq.path': './evil.sh', 'includes.directories': ['/'], 'jq.memoryLimitMb': 64 });
  const user = getter({ 'jq.path': '/usr/bin/jq' });
  assert.deepEqual(serverSettingsFrom(workspace, true, user), {
    jqPath: '/usr/bin/jq',
    jqMemoryLimitMb: 64,
    agentAddresses: [],
  });
  assert.deepEqual(serverSettingsFrom(workspace, false, getter({})), {
    workspaceTrusted: false,
    jqMemoryLimitMb: 64,
    agentAddresses: [],
  });
});

test('package.json declares limited support for untrusted workspaces and machine scope for jq.path', () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as {
    capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] } };
    contributes: { configuration: { properties: Record<string, { scope?: string }> } };
  };
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('psconfig.jq.path'));
  assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('psconfig.includes.allowRemote'));
  for (const key of MACHINE_SETTING_KEYS)
    assert.equal(pkg.contributes.configuration.properties[`psconfig.${key}`].scope, 'machine', key);
});

test('psconfig.archives.ipAllowedHosts: declared in package.json, forwarded as ipAllowedHosts (blanks dropped), and read back by the server in both shapes', async () => {
  const { toServerSettings } = await import('../../../server/src/lsp/main');
  const { SERVER_SETTING_KEYS } = await import('../../../client/src/language/server-settings');
  const pkg = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { type?: string }> } };
  };
  assert.equal(pkg.contributes.configuration.properties['psconfig.archives.ipAllowedHosts'].type, 'array');
  assert.ok(
    (SERVER_SETTING_KEYS as readonly string[]).includes('archives.ipAllowedHosts'),
    'a change reaches the server',
  );
  const sent = serverSettingsFrom(getter({ 'archives.ipAllowedHosts': [' ma.example.net ', '', 7, 'ma.example.net'] }));
  assert.deepEqual(sent.ipAllowedHosts, ['ma.example.net']);
  assert.equal(serverSettingsFrom(getter({})).ipAllowedHosts, undefined);
  assert.deepEqual(toServerSettings(sent).ipAllowedHosts, ['ma.example.net']);
  assert.deepEqual(toServerSettings({ archives: { ipAllowedHosts: ['a.example', 1, ' '] } }).ipAllowedHosts, [
    'a.example',
  ]);
});
