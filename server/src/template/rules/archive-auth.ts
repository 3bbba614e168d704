// An http archive posting to a perfSONAR 5 archive's `/logstash` on another host reaches it only with credentials or
// from an allowed address: the archive host's Apache guards the path with HTTP Basic auth, with IP or host rules as
// the alternative (perfsonar/archive @ c7e3b10, perfsonar-archive/perfsonar-archive/config/apache/apache-logstash.conf
// lines 17-53: `<Location /logstash>` `Authtype Basic`, `AuthUserFile /etc/perfsonar/opensearch/logstash_login`,
// `<RequireAny>` `Require valid-user`, and the commented `Require ip …` / `Require host …` examples). Without either
// Apache answers 401 and pScheduler's http archiver gives up after its retries: nothing arrives, and the template
// says nothing about it. The archive host's own helper for remote testers writes the credentials into `_headers`
// (opensearch-scripts/psconfig_archive.sh lines 21-26 and 40-43: with `-a basic`, the default, it appends the line
// of /etc/perfsonar/logstash/proxy_auth.json, `"Authorization":"Basic …"`, written by pselastic_secure_pre.sh
// lines 132-136; `-a ip` leaves it out, for hosts allowed by address). We never write a credential: the
// diagnostic says what the archive host needs, and stays until `_headers` carries an `Authorization` header
// (HTTP header names are case-insensitive, RFC 9110 §5.1) or the user says the host allows the testers by address
// (`psconfig.archives.ipAllowedHosts`, `--ip-allowed-host`).
//
// Reported: `archiver` http, `data._url` an http(s) URL whose path is `/logstash` (the ProxyPass of
// apache-logstash.conf line 13), whose host is neither loopback (that is the archive-localhost check's) nor a
// template variable (`{% scheduled_by_address %}` is each scheduling host's own archive, set up on that host; any
// other variable names hosts we cannot know).
import type { TemplateModel } from '../model';
import { members, memberProps, keyName, propertyValue, stringValue, type JsonNode } from '../parse';
import { isLoopbackHost } from '../legacy-variables';
import { sectionNode } from '../symbols';
import { splitUrl } from './archive-localhost';
import { diag, type TemplateDiagnostic } from './diagnostic';

export interface ArchiveCheckOptions {
  /** Archive hosts that let the testers post to /logstash by their address (`Require ip`/`Require host`). */
  ipAllowedHosts?: readonly string[];
}

export interface LogstashAuthNeed {
  archive: string;
  /** The `_url` value node. */
  value: JsonNode;
  url: string;
  /** The archive host as written in the URL (brackets kept for IPv6). */
  host: string;
}

/** `Host.Example.`, `[2001:db8::1]` → `host.example`, `2001:db8::1`. */
export function normalHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

const LOGSTASH_PATH = /^\/logstash(?:[/?#]|$)/;

/** The http archives posting to another host's /logstash with neither an `Authorization` header nor an IP rule. */
export function logstashAuthNeeds(model: TemplateModel, opts: ArchiveCheckOptions = {}): LogstashAuthNeed[] {
  const allowed = new Set((opts.ipAllowedHosts ?? []).map(normalHost).filter((h) => h !== ''));
  const out: LogstashAuthNeed[] = [];
  for (const [name, prop] of members(sectionNode(model.parsed.root, 'archives'))) {
    const archive = prop.children?.[1];
    if (archive?.type !== 'object' || stringValue(propertyValue(archive, 'archiver')) !== 'http') continue;
    const data = propertyValue(archive, 'data');
    const value = propertyValue(data, '_url');
    const url = stringValue(value);
    const u = url === undefined ? undefined : splitUrl(url);
    if (!u || !/^https?:\/\/$/i.test(u.scheme) || !LOGSTASH_PATH.test(u.rest)) continue;
    if (u.host.includes('{%') || isLoopbackHost(u.host)) continue;
    if (hasAuthorization(propertyValue(data, '_headers'))) continue;
    if (allowed.has(normalHost(u.host))) continue;
    out.push({ archive: name, value: value!, url: url!, host: u.host });
  }
  return out;
}

/** `_headers` has an `Authorization` member (any case) with a non-empty string value. */
function hasAuthorization(headers: JsonNode | undefined): boolean {
  return memberProps(headers).some(
    (p) => keyName(p).toLowerCase() === 'authorization' && (stringValue(p.children?.[1])?.trim() ?? '') !== '',
  );
}

/** What the operator must still do for one archive, in a line (the `fix` report's "to do"). */
export function logstashAuthTodo(n: LogstashAuthNeed): string {
  const host = normalHost(n.host);
  return `archive \`${n.archive}\` (${n.url}): add the Basic \`Authorization\` header of ${host} (the line in its /etc/perfsonar/logstash/proxy_auth.json) to \`_headers\`, or allow the testers' addresses there (\`Require ip\` in apache-logstash.conf) and pass --ip-allowed-host ${host}`;
}

export function checkArchiveAuth(model: TemplateModel, opts: ArchiveCheckOptions = {}): TemplateDiagnostic[] {
  return logstashAuthNeeds(model, opts).map((n) => {
    const host = normalHost(n.host);
    return diag(
      'psconfig/archive-logstash-auth',
      'warning',
      `Archive \`${n.archive}\` posts to ${host}'s /logstash: a perfSONAR 5 archive host lets a post through only with HTTP Basic credentials or from an address it allows (its Apache, apache-logstash.conf), and answers 401 otherwise, so no result arrives. Add its \`Authorization\` header to \`_headers\` (the line in ${host}'s /etc/perfsonar/logstash/proxy_auth.json, as its psconfig_archive.sh does), or allow the testers' addresses there (\`Require ip\`) and list \`${host}\` in \`psconfig.archives.ipAllowedHosts\` (psconfig-tools: --ip-allowed-host ${host}).`,
      n.value.offset,
      n.value.offset + n.value.length,
    );
  });
}
