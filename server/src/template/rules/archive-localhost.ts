// An archive that sends results to `localhost` (or 127.0.0.1, ::1) in a template whose tasks pair two hosts:
// `localhost` is whichever host's pScheduler archives the run, not the host that scheduled the task, so results of
// one mesh land in several archives (perfsonar/toolkit#486: "inbound tests results … posted to the remote hosts
// logstash"; perfSONAR's MeshConfigTasks translator replaced such hosts by `{% scheduled_by_address %}` "since
// localhost causes problems when remote is lead", perfsonar/perl-shared …/Translators/MeshConfigTasks/Config.pm).
// A template whose tasks all have one address (list groups) archives on that host either way: not reported.
//
// Who archives a run: pScheduler inserts a task's archives into its archiving queue only on the lead participant
// (perfsonar/pscheduler @ 1e8b1924, pscheduler-server/pscheduler-server/database/archiving.sql:220-233,
// `AND task.participant = 0`; daemons/runner:575-579, "The lead participant … takes care of gathering and merging
// the finished results"). The lead is the first host of the test's `participants` program (the same table as
// schedule/participants.ts); a missing one (null) is the pScheduler the task was posted to, the scheduling host's
// own (perfsonar/psconfig @ 3ba9927, client/pscheduler/task.py:694-699 refresh_lead: "if lead exists, change url,
// otherwise keep the same"). So a task whose lead is the scheduling host in every combination archives its runs
// where the scheduling host meant: `localhost` is then that host, and nothing is reported. The scheduling address is
// `addresses[scheduled-by]` (default 0), or the other address when that one has `no-agent` (the flip;
// psconfig parsers/task_generator.py:120-165); `{% flip %}` is true exactly then (parsers/template.py:104-113), and
// `{% localhost %}` is "localhost" unflipped, the scheduling address flipped.
//
// Loopback-only credentials: RabbitMQ's `guest` user may connect only over loopback (rabbitmq/rabbitmq-server
// deps/rabbit/Makefile PROJECT_ENV: `{default_user, <<"guest">>}`, `{loopback_users, [<<"guest">>]}`; the
// access-control guide: "the guest user is prohibited from connecting from remote hosts; it can only connect over
// a loopback interface"); pScheduler's rabbitmq archiver connects with pika.URLParameters(data._url)
// (perfsonar/pscheduler pscheduler-archiver-rabbitmq). Such an archive works only on localhost: it is left there,
// with a note instead of the warning (and no fix to another host).
import type { TemplateModel } from '../model';
import type { TaskInfo } from '../model';
import { members, memberProps, propertyValue, stringValue, type JsonNode } from '../parse';
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
  /** A task that pairs two hosts, uses the archive and whose lead participant may not be the scheduling host, and
   *  its group. */
  task: string;
  group: string;
  /** The lead participant's spec field of that task (`source`, `dest`, `host`, …); undefined when not known. */
  lead: string | undefined;
  /** The URL's user works only over loopback (RabbitMQ's `guest`): the archive is left on localhost. */
  loopbackOnly: boolean;
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
    let pair: TaskInfo | undefined;
    let lead: LeadVerdict | undefined;
    for (const t of model.usersOf('archives', name)) {
      if (t.group === undefined || model.groups.get(t.group)?.size !== 2) continue;
      lead = leadVerdict(model, t);
      if (lead.alwaysScheduler) continue;
      pair = t;
      break;
    }
    if (!pair) continue;
    out.push({
      archive: name,
      node: archive,
      archiver,
      ...found,
      task: pair.name,
      group: pair.group!,
      lead: lead?.field,
      loopbackOnly: found.url !== undefined && loopbackOnlyUser(found.url),
    });
  }
  return out;
}

/** The URL's user is RabbitMQ's `guest`, which its default `loopback_users` lets in over loopback only. */
export function loopbackOnlyUser(url: UrlParts): boolean {
  if (!/^amqps?:\/\/$/i.test(url.scheme) || !url.userinfo) return false;
  const user = url.userinfo.slice(0, -1).split(':')[0];
  let decoded: string;
  try {
    decoded = decodeURIComponent(user);
  } catch {
    return false;
  }
  return decoded === 'guest';
}

interface LeadVerdict {
  /** In every combination, the lead participant is the host that scheduled the task. */
  alwaysScheduler: boolean;
  /** The spec field naming the lead (unflipped), when known. */
  field?: string;
}

/** The lead participant's field per test type: pscheduler-test-<T>/<T>/participants (see schedule/participants.ts,
 *  which reads the same programs for every participant). */
const SOURCE_LED = new Set(['throughput', 'simplestream', 'rtt', 'trace', 'clock', 'mtu', 'psresponse']);
const FLIP_LED = new Set(['latency', 'latencybg']);

const SELF_VARIABLE = /^\{%\s*(?:scheduled_by_address|localhost)\s*%\}$/;
const ADDRESS_VARIABLE = /^\{%\s*(?:address|pscheduler_address)\[(\d+)\]\s*%\}$/;
const FLIP_VARIABLE = /^\{%\s*flip\s*%\}$/;

/** Is the lead participant of `task` the scheduling host in every combination? Unknown counts as no. */
function leadVerdict(model: TemplateModel, task: TaskInfo): LeadVerdict {
  const no: LeadVerdict = { alwaysScheduler: false };
  const test = task.test === undefined ? undefined : members(sectionNode(model.parsed.root, 'tests')).get(task.test);
  const testValue = test?.children?.[1];
  const type = stringValue(propertyValue(testValue, 'type'));
  const spec = propertyValue(testValue, 'spec');
  if (type === undefined || spec?.type !== 'object') return no;
  const sb = propertyValue(task.node, 'scheduled-by');
  const scheduledBy = sb === undefined ? 0 : sb.value;
  if (scheduledBy !== 0 && scheduledBy !== 1) return no;
  const flips = mayFlip(model);
  /** Is the host named by `field` the scheduling host, unflipped (and flipped, when a flip can happen)? */
  const isScheduler = (field: string, flipped: boolean, nodeFirst = true): boolean => {
    const node = (nodeFirst ? propertyValue(spec, `${field}-node`) : undefined) ?? propertyValue(spec, field);
    if (node === undefined || node.type === 'null') return true; // the pScheduler it was posted to
    const s = stringValue(node)?.trim();
    if (s === undefined) return false;
    if (SELF_VARIABLE.test(s)) return true;
    const m = ADDRESS_VARIABLE.exec(s);
    return m !== null && Number(m[1]) === (flipped ? 1 - scheduledBy : scheduledBy);
  };
  const steady = (field: string, nodeFirst = true): LeadVerdict => ({
    alwaysScheduler: isScheduler(field, false, nodeFirst) && (!flips || isScheduler(field, true, nodeFirst)),
    field,
  });
  if (SOURCE_LED.has(type)) return steady('source');
  if (FLIP_LED.has(type)) {
    const flip = propertyValue(spec, 'flip');
    if (flip === undefined || flip.value === false || flip.type === 'null') return steady('source');
    if (flip.value === true) return steady('dest');
    if (!FLIP_VARIABLE.test(stringValue(flip)?.trim() ?? '')) return { alwaysScheduler: false, field: 'source' };
    // `{% flip %}`: the source leads unflipped, the destination flipped
    return { alwaysScheduler: isScheduler('source', false) && (!flips || isScheduler('dest', true)), field: 'source' };
  }
  // disk-to-disk reads `host` only (no `host-node`); the rest `host-node`, else `host`
  if (type === 'disk-to-disk') return steady('host', false);
  const host = propertyValue(spec, 'host');
  if (host?.type === 'array') return { alwaysScheduler: false, field: 'host' }; // idle schema 2: a list of hosts
  return steady('host');
}

/** Can an address of this template be `no-agent` (on the address, a remote address or label of it, or its host)?
 *  Then some combinations are scheduled by the other address (the flip). */
function mayFlip(model: TemplateModel): boolean {
  const root = model.parsed.root;
  const truthy = (obj: JsonNode | undefined): boolean => {
    const v = propertyValue(obj, 'no-agent');
    return v !== undefined && v.value !== false && v.type !== 'null';
  };
  for (const section of ['addresses', 'hosts'] as const)
    for (const p of memberProps(sectionNode(root, section))) {
      const obj = p.children?.[1];
      if (truthy(obj)) return true;
      for (const nested of ['remote-addresses', 'labels'])
        for (const q of memberProps(propertyValue(obj, nested))) if (truthy(q.children?.[1])) return true;
    }
  return false;
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
    const lead = a.lead ? ` (for task \`${a.task}\`: the host its test's \`${a.lead}\` names)` : '';
    if (a.loopbackOnly)
      return diag(
        'psconfig/archive-loopback-credentials',
        'information',
        `Archive \`${a.archive}\` is left on \`${host}\`: RabbitMQ's \`guest\` user may connect only over loopback (RabbitMQ's default \`loopback_users\` is [guest]), so this URL works only on the host it names. Each run goes to the RabbitMQ of the host that archives it, the lead participant${lead}. To collect results centrally, create a user on the central broker and write its URL here.`,
        a.value.offset,
        a.value.offset + a.value.length,
      );
    return diag(
      'psconfig/archive-localhost',
      'warning',
      `Archive \`${a.archive}\` sends results to \`${host}\`, but task \`${a.task}\` (group \`${a.group}\`) pairs two hosts: \`${host}\` is the host whose pScheduler archives a run, the lead participant${lead}, which is not always the one that scheduled the task, so results of one template land in several archives (perfsonar/toolkit#486). Use \`{% scheduled_by_address %}\` (each host's own archive) or the central archive's host name.`,
      a.value.offset,
      a.value.offset + a.value.length,
    );
  });
}
