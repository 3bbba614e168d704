// The VS Code settings of section `psconfig`, mapped to the flat ServerSettings the language server reads.
// Pure: the caller passes a getter (vscode's WorkspaceConfiguration.get), so this is tested without VS Code.
import type { ServerSettings } from '../../../common/protocol';

/** Reads one setting of the `psconfig` section by its key below the section (`jq.path`, ...). */
export type SettingGetter = (key: string) => unknown;

/** Keys below `psconfig.` whose change the server must hear about. */
export const SERVER_SETTING_KEYS = [
  'jq.path',
  'jq.memoryLimitMb',
  'jq.maxConcurrent',
  'includes.allowRemote',
  'includes.directories',
  'diagnostics.severity',
  'preview.agentAddresses',
  'archives.ipAllowedHosts',
] as const;

/**
 * Machine-scoped settings: they choose a program to run or directories to read, so a workspace may not set them
 * (package.json gives them `"scope": "machine"`, which VS Code honours too); only the user's value is read.
 */
export const MACHINE_SETTING_KEYS = ['jq.path', 'includes.directories'] as const;

/**
 * `trusted`: the workspace's trust state (vscode.workspace.isTrusted); restricted mode runs no jq, fetches nothing.
 * `userValue`: the user-level value of a key (WorkspaceConfiguration.inspect(key).globalValue), used for the
 * MACHINE_SETTING_KEYS; without it they are read through `get`.
 */
export function serverSettingsFrom(get: SettingGetter, trusted = true, userValue?: SettingGetter): ServerSettings {
  const settings: ServerSettings = trusted ? {} : { workspaceTrusted: false };
  const machine = (key: (typeof MACHINE_SETTING_KEYS)[number]): unknown => (userValue ?? get)(key);
  const jq = machine('jq.path');
  if (typeof jq === 'string' && jq.trim() !== '') settings.jqPath = jq.trim();
  const memory = get('jq.memoryLimitMb');
  if (typeof memory === 'number' && Number.isFinite(memory) && memory >= 0) settings.jqMemoryLimitMb = memory;
  const concurrent = get('jq.maxConcurrent');
  if (typeof concurrent === 'number' && Number.isInteger(concurrent) && concurrent >= 1)
    settings.jqMaxConcurrent = concurrent;
  const remote = get('includes.allowRemote');
  if (typeof remote === 'boolean') settings.includesAllowRemote = remote;
  const dirs = machine('includes.directories');
  if (Array.isArray(dirs))
    settings.includesDirectories = dirs.filter((d): d is string => typeof d === 'string' && d !== '');
  const severity = get('diagnostics.severity');
  if (severity && typeof severity === 'object' && !Array.isArray(severity)) {
    const map: Record<string, string> = {};
    for (const [code, level] of Object.entries(severity)) if (typeof level === 'string') map[code] = level;
    if (Object.keys(map).length) settings.diagnosticsSeverity = map;
  }
  settings.agentAddresses = agentAddressList(get('preview.agentAddresses'));
  const allowed = agentAddressList(get('archives.ipAllowedHosts'));
  if (allowed.length) settings.ipAllowedHosts = allowed;
  return settings;
}

/** A clean list of match addresses from a setting value of any shape (non-strings and blanks dropped). */
export function agentAddressList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const v of value) {
    if (typeof v !== 'string') continue;
    const a = v.trim();
    if (a !== '' && !out.includes(a)) out.push(a);
  }
  return out;
}

/** Match addresses typed by the user: separated by commas and/or whitespace; duplicates dropped. */
export function parseAgentAddressInput(text: string): string[] {
  return agentAddressList(text.split(/[\s,]+/));
}
