// An esmond archive turned into the standard perfSONAR 5 archive: pScheduler's `http` archiver posting to the
// logstash behind Apache on the same host, as perfSONAR 5 itself writes it:
//   perfsonar/toolkit toolkit/perfsonar-toolkit/archive/http_logstash.json (the default archive every 5.x toolkit
//   installs in /etc/perfsonar/psconfig/archives.d/): "schema": 2, "op": "put", "_headers" with
//   "x-ps-observer": "{% scheduled_by_address %}" and "content-type": "application/json";
//   perfsonar/archive perfsonar-archive/opensearch-scripts/psconfig_archive.sh (the archive host's helper for
//   remote testers): "_url": "https://HOST/logstash", the same headers, "verify-ssl" only with "schema": 3, and
//   "_meta": {"esmond_url": "https://HOST/esmond/perfsonar/archive/"} at the archive's top level;
//   perfsonar/archive …/config/apache/apache-logstash.conf: `ProxyPass /logstash http://localhost:11283`.
// 5.x hosts have no esmond archiver (pscheduler#1534, #1632), but still answer esmond's queries at the same URL
// (elmond, perfsonar/docs manage_update.rst): the old URL is kept as `_meta.esmond_url`, where the archive explorer
// and the mesh dashboard read it.
//
// What carries over: `url`'s host (and port, for https) → `_url`; `measurement-agent` → the `x-ps-observer` header
// (the observer logstash records, 02-pscheduler_common.conf); `bind`, `retry-policy` (the same {attempts, wait}
// list) and `verify-ssl` (then schema 3); `#` comments; `_meta` inside `data` moves up. What has no equivalent is
// dropped and said: `_auth-token` (esmond's API key; logstash takes HTTP Basic credentials or an IP allow-list,
// apache-logstash.conf), `summaries` and `data-formatting-policy` (esmond's storage options).
import { firstMember, keyName, stringValue, type JsonNode } from '../parse';
import { replaceLegacyPlaceholders } from '../legacy-variables';
import { splitUrl } from '../rules/archive-localhost';
import { objectStyle, RawJson, renderMember, type MemberItem, type TextEditOffsets } from './json-text';
import { moveMetaUp, type Outcome } from './meta-up';

/** esmond data fields with a place in the http archive's data, kept as written. */
const KEPT = new Set(['bind', 'retry-policy', 'verify-ssl']);
/** esmond data fields with no equivalent, and why. */
const DROPPED: Record<string, string> = {
  '_auth-token':
    "esmond's API key: the archive host's logstash takes HTTP Basic credentials (an `Authorization` header, from its /etc/perfsonar/logstash/proxy_auth.json) or an IP allow-list in apache-logstash.conf",
  summaries: 'esmond computed summaries when storing; OpenSearch aggregates when asked',
  'data-formatting-policy': "esmond's storage format; logstash stores the pScheduler result as it is",
};

export interface EsmondFix {
  edits: TextEditOffsets[];
  /** The new `_url`. */
  url: string;
  /** Fields dropped, each with why. */
  dropped: string[];
}

/** The logstash URL on the host of an esmond URL; undefined when it has no host. The port stays only with https
 *  (an http port is not the TLS port Apache serves /logstash on). */
export function logstashUrl(esmondUrl: string): string | undefined {
  const u = splitUrl(esmondUrl);
  if (!u || !/^https?:\/\/$/i.test(u.scheme)) return undefined;
  const port = /^https:/i.test(u.scheme) ? u.port : '';
  return `https://${u.userinfo}${u.host}${port}/logstash`;
}

/** The fix for the esmond archive whose `archiver` value is `archiverValue`. */
export function esmondToHttp(
  text: string,
  archiverValue: JsonNode,
): (EsmondFix & { edits: TextEditOffsets[] }) | { reason: string } {
  const archive = archiverValue.parent?.parent;
  if (archive?.type !== 'object') return { reason: 'the archive is not an object' };
  const dataProp = lastMember(archive, 'data');
  const data = dataProp?.children?.[1];
  if (data?.type !== 'object') return { reason: 'its `data` is not an object' };
  const urlProp = lastMember(data, 'url');
  const esmondUrl = stringValue(urlProp?.children?.[1]);
  if (esmondUrl === undefined) return { reason: 'its `data.url` is not a string' };
  const url = logstashUrl(esmondUrl);
  if (!url) return { reason: `its \`data.url\` (${JSON.stringify(esmondUrl)}) names no http(s) host` };

  const agentToken = lastMember(data, 'measurement-agent')?.children?.[1];
  const observer =
    agentToken?.type === 'string'
      ? new RawJson(replaceLegacyPlaceholders(text.slice(agentToken.offset, agentToken.offset + agentToken.length)))
      : '{% scheduled_by_address %}';
  const style = objectStyle(text, data);
  const verifySsl = lastMember(data, 'verify-ssl') !== undefined;
  const created = [
    renderMember('schema', verifySsl ? 3 : 2, style),
    renderMember('_url', url, style),
    renderMember('op', 'put', style),
    renderMember('_headers', { 'x-ps-observer': observer, 'content-type': 'application/json' }, style),
  ];
  const items: MemberItem[] = [];
  const dropped: string[] = [];
  let metaProp: JsonNode | undefined;
  for (const p of data.children ?? []) {
    if (p.comment) {
      items.push({ keep: p });
      continue;
    }
    const key = keyName(p);
    if (key === 'url') {
      if (p === firstMember(data, 'url')) items.push(...created.map((t) => ({ text: t })));
    } else if (KEPT.has(key)) items.push({ keep: p });
    else if (key === '_meta') metaProp = p;
    else if (key in DROPPED) dropped.push(`\`${key}\` (${DROPPED[key]})`);
    else if (key !== 'measurement-agent' && key !== 'schema') items.push({ keep: p }); // not esmond's: left to the checks
  }
  const moved: Outcome = moveMetaUp(text, data, items, metaProp, [
    {
      key: 'esmond_url',
      value: new RawJson(
        text.slice(urlProp!.children![1].offset, urlProp!.children![1].offset + urlProp!.children![1].length),
      ),
    },
  ]);
  if ('reason' in moved) return moved;
  const archiverEdit = {
    start: archiverValue.offset,
    end: archiverValue.offset + archiverValue.length,
    newText: '"http"',
  };
  return { edits: [archiverEdit, ...moved.edits], url, dropped };
}

/** The last member of that name (the one pSConfig reads: Python's json keeps the last duplicate). */
function lastMember(obj: JsonNode, key: string): JsonNode | undefined {
  const kids = obj.children ?? [];
  for (let i = kids.length - 1; i >= 0; i--)
    if (!kids[i].comment && kids[i].children?.[1] && keyName(kids[i]) === key) return kids[i];
  return undefined;
}
