// Client settings (workspace/configuration section `psconfig`) mapped onto ServerSettings.
// The client may hand back either VS Code's nested view of the section ({ jq: { path }, includes:
// { allowRemote, directories }, preview: { agentAddresses }, archives: { ipAllowedHosts } }) or ServerSettings' flat keys; both are accepted.
import { isAbsolute } from 'node:path';
import { isObject } from '../../../../common/json';
import type { ServerSettings } from '../../../../common/protocol';
import { JQ_RESTRICTED, type JqConfig } from '../../template/jq/config';

type Json = Record<string, unknown>;

function pick(section: Json, flat: string, path: string[]): unknown {
  if (section[flat] !== undefined) return section[flat];
  // VS Code also returns dotted keys when a setting is read through a non-nested path.
  const dotted = path.join('.');
  if (section[dotted] !== undefined) return section[dotted];
  let cur: unknown = section;
  for (const p of path) {
    if (!isObject(cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}

export function toServerSettings(section: unknown): ServerSettings {
  if (!isObject(section)) return {};
  const out: ServerSettings = {};
  const jq = pick(section, 'jqPath', ['jq', 'path']);
  if (typeof jq === 'string' && jq.trim() !== '') out.jqPath = jq.trim();
  const memory = pick(section, 'jqMemoryLimitMb', ['jq', 'memoryLimitMb']);
  if (typeof memory === 'number' && Number.isFinite(memory) && memory >= 0) out.jqMemoryLimitMb = memory;
  const concurrent = pick(section, 'jqMaxConcurrent', ['jq', 'maxConcurrent']);
  if (typeof concurrent === 'number' && Number.isInteger(concurrent) && concurrent >= 1)
    out.jqMaxConcurrent = concurrent;
  if (section.workspaceTrusted === false) out.workspaceTrusted = false;
  const remote = pick(section, 'includesAllowRemote', ['includes', 'allowRemote']);
  if (typeof remote === 'boolean') out.includesAllowRemote = remote;
  const dirs = pick(section, 'includesDirectories', ['includes', 'directories']);
  if (Array.isArray(dirs))
    out.includesDirectories = dirs.filter((d): d is string => typeof d === 'string' && isAbsolute(d));
  const severity = pick(section, 'diagnosticsSeverity', ['diagnostics', 'severity']);
  if (isObject(severity)) {
    const map: Record<string, string> = {};
    for (const [code, level] of Object.entries(severity)) if (typeof level === 'string') map[code] = level;
    out.diagnosticsSeverity = map;
  }
  const agents = pick(section, 'agentAddresses', ['preview', 'agentAddresses']);
  if (Array.isArray(agents)) out.agentAddresses = agents.filter((a): a is string => typeof a === 'string' && a !== '');
  const allowed = pick(section, 'ipAllowedHosts', ['archives', 'ipAllowedHosts']);
  if (Array.isArray(allowed))
    out.ipAllowedHosts = allowed
      .filter((h): h is string => typeof h === 'string' && h.trim() !== '')
      .map((h) => h.trim());
  return out;
}

/** The jq binary: the setting, then the server's default (JQ_PATH, read by the entry point), then whatever the
 *  engine's default is. */
export function effectiveJqPath(settings: ServerSettings, defaultJqPath: string | undefined): string | undefined {
  return settings.jqPath ?? (defaultJqPath || undefined);
}

/**
 * Everything the jq runner needs from the settings (whose jqPath is already the effective one, see
 * effectiveJqPath); a restricted workspace runs no jq at all.
 */
export function jqConfigOf(settings: ServerSettings): JqConfig {
  return {
    path: settings.jqPath,
    memoryLimitMb: settings.jqMemoryLimitMb,
    maxConcurrent: settings.jqMaxConcurrent,
    disabled: settings.workspaceTrusted === false ? JQ_RESTRICTED : undefined,
  };
}
