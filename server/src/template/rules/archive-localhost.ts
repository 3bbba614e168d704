// An archive that sends results to `localhost` (or 127.0.0.1, ::1) in a template whose tasks pair two hosts:
// `localhost` is whichever host's pScheduler archives the run, not the host that scheduled the task, so results of
// one mesh land in several archives (perfsonar/toolkit#486: "inbound tests results … posted to the remote hosts
// logstash"; perfSONAR's MeshConfigTasks translator replaced such hosts by `{% scheduled_by_address %}` "since
// localhost causes problems when remote is lead", perfsonar/perl-shared …/Translators/MeshConfigTasks/Config.pm).
// A template whose tasks all have one address (list groups) archives on that host either way: not reported.
import type { TemplateModel } from '../model';
import { members, propertyValue, stringValue, type JsonNode } from '../parse';
import { isLoopbackHost } from '../legacy-variables';
import { sectionNode } from '../symbols';
import { diag, type TemplateDiagnostic } from './diagnostic';

/** A URL split around its host (offsets into the URL string). */
export interface UrlParts {
  /** `https://` (scheme and `//`). */
  scheme: string;
  /** `user:pass@`, or ''. */
  userinfo: string;
  host: string;
  /** `:8443`, or ''. */
  port: string;
  /** Path, query and fragment. */
  rest: string;
  hostStart: number;
  hostEnd: number;
}

const URL_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)(:\d*)?(.*)$/s;

export function splitUrl(url: string): UrlParts | undefined {
  const m = URL_PARTS.exec(url);
  if (!m || !m[3]) return undefined;
  const userinfo = m[2] ?? '';
  const hostStart = m[1].length + userinfo.length;
  return {
    scheme: m[1],
    userinfo,
    host: m[3],
    port: m[4] ?? '',
    rest: m[5],
    hostStart,
    hostEnd: hostStart + m[3].length,
  };
}

/** Data fields holding where an archiver sends results: a URL, or a bare host (tcp, udp). */
const URL_KEYS = ['_url', 'url'];
const HOST_KEYS: Record<string, string> = { tcp: 'host', udp: 'host' };

export interface LoopbackArchive {
  archive: string;
  /** The archive object. */
  node: JsonNode;
  archiver: string | undefined;
  /** The data field and its string value node. */
  key: string;
  value: JsonNode;
  /** Split URL; undefined for a bare host field. */
  url: UrlParts | undefined;
  /** A task that pairs two hosts and uses the archive, and its group. */
  task: string;
  group: string;
}

export function loopbackArchives(model: TemplateModel): LoopbackArchive[] {
  const out: LoopbackArchive[] = [];
  for (const [name, prop] of members(sectionNode(model.parsed.root, 'archives'))) {
    const archive = prop.children?.[1];
    const data = propertyValue(archive, 'data');
    if (archive?.type !== 'object' || data?.type !== 'object') continue;
    const archiver = stringValue(propertyValue(archive, 'archiver'));
    const found = loopbackField(data, archiver);
    if (!found) continue;
    const pair = model
      .usersOf('archives', name)
      .find((t) => t.group !== undefined && model.groups.get(t.group)?.size === 2);
    if (!pair) continue;
    out.push({ archive: name, node: archive, archiver, ...found, task: pair.name, group: pair.group! });
  }
  return out;
}

function loopbackField(
  data: JsonNode,
  archiver: string | undefined,
): Pick<LoopbackArchive, 'key' | 'value' | 'url'> | undefined {
  for (const key of URL_KEYS) {
    const value = propertyValue(data, key);
    const s = stringValue(value);
    const url = s === undefined ? undefined : splitUrl(s);
    if (url && isLoopbackHost(url.host)) return { key, value: value!, url };
  }
  const hostKey = archiver !== undefined ? HOST_KEYS[archiver] : undefined;
  const value = hostKey ? propertyValue(data, hostKey) : undefined;
  const s = stringValue(value);
  if (s !== undefined && isLoopbackHost(s)) return { key: hostKey!, value: value!, url: undefined };
  return undefined;
}

export function checkArchiveLocalhost(model: TemplateModel): TemplateDiagnostic[] {
  return loopbackArchives(model).map((a) => {
    const host = a.url ? a.url.host : String(a.value.value);
    return diag(
      'psconfig/archive-localhost',
      'warning',
      `Archive \`${a.archive}\` sends results to \`${host}\`, but task \`${a.task}\` (group \`${a.group}\`) pairs two hosts: \`${host}\` is whichever host's pScheduler archives a run, often not the one that scheduled it, so results of one template land in several archives (perfsonar/toolkit#486). Use \`{% scheduled_by_address %}\` (each host's own archive) or the central archive's host name.`,
      a.value.offset,
      a.value.offset + a.value.length,
    );
  });
}
