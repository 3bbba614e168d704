// MeshConfig (perfSONAR 4.0) → pSConfig template, following pSConfig 4.x's own translator: perfsonar/perl-shared
// @ 033b9215, libperfsonar/libperfsonar/lib/perfSONAR_PS/Client/PSConfig/Translators/MeshConfig/Config.pm (cited as
// Config.pm:LINE below). perfsonar/psconfig's Python port (psconfig/perfsonar-psconfig/psconfig/client/psconfig/
// translators/mesh_config/config.py) is a stub whose can_translate returns False, so the Perl code is the one
// behaviour there is. Pure: a MeshConfig value in, a template value and the list of what was not translated out.
//
// What it makes (as Config.pm does):
//   - an `esmond` archive per measurement-archive host (named by the host of read_url, Config.pm:279-297);
//   - an address per host address, and a `hosts` object per MeshConfig host (named from its description, else its
//     first address), with `_meta` from descriptions, administrators, locations and the toolkit URL, and the
//     archives of the host, its site, its organisation (Config.pm:417-523);
//   - an address class per host class with one data source (Config.pm:299-415);
//   - per test: a group (`group_N`, shared by equal groups), a test (`<type>_N`), a schedule (`schedule_N`) and a
//     task named from the description (else `task_N`) with the top-level and the test's archives (Config.pm:538-683).
// Where this differs from Config.pm (its slips, and what perfSONAR 5 needs) docs/migration.md lists it.
import {
  PARAMETER_TYPES,
  buildSchedule,
  buildSpec,
  buildTools,
  droppedReason,
  readParameters,
  type FieldProblem,
} from './parameters';
import { MESHCONFIG_ROLE_VARIABLES } from '../legacy-variables';
import { tool as pschedulerTool } from '../pscheduler/catalog';
import { arrayOf, canonical, formatName, isDefined, isTrue, urlHost, type JsonObject } from './values';
import { isObject, jsonText } from '../../../../common/json';

export type NotePath = (string | number)[];

export interface TranslationNote {
  /** Where in the MeshConfig value (keys and indexes); a key's note is shown on that key. */
  path: NotePath;
  /** warning: something the MeshConfig asks for is lost; information: kept another way, or only a remark. */
  severity: 'warning' | 'information';
  message: string;
}

export interface TranslateOptions {
  /** `_meta.psconfig-translation.time-translated` (default: now). */
  now?: Date;
  /** As pSConfig's `--use-force-bidirectional`: a second task scheduled by the destination for such tests. */
  useForceBidirectional?: boolean;
  /** As pSConfig's `--disable-bwctl`: no BWCTL tool variants. Implied by `perfsonar5`. */
  disableBwctl?: boolean;
  /**
   * Adapt the result to perfSONAR 5 (default true): no BWCTL tools (5.x has none) and a
   * `reference.display-task-name` from each test's description (the Grafana agent finds results by it).
   */
  perfsonar5?: boolean;
}

export interface MeshConfigTranslation {
  template: JsonObject;
  notes: TranslationNote[];
  /** Each task made, by name: the path of the MeshConfig test it came from (for notes on what it yields). */
  taskFrom: Record<string, NotePath>;
}

const META_DISPLAY_NAME = 'display-name';

/** Fields of each MeshConfig object (Schema.pm); `dropped` ones are known but have no pSConfig counterpart. */
const FIELDS = {
  top: ['description', 'administrators', 'organizations', 'measurement_archives', 'tests', 'hosts', 'host_classes'],
  organization: ['description', 'administrators', 'measurement_archives', 'tags', 'location', 'hosts', 'sites'],
  site: ['description', 'administrators', 'measurement_archives', 'tags', 'location', 'hosts'],
  host: [
    'description',
    'toolkit_url',
    'no_agent',
    'disabled',
    'location',
    'lead_bind_address',
    'pscheduler_address',
    'administrators',
    'tags',
    'measurement_archives',
    'addresses',
  ],
  address: [
    'address',
    'lead_bind_address',
    'pscheduler_address',
    'tags',
    'bind_maps',
    'pscheduler_address_maps',
    'maps',
  ],
  test: ['description', 'members', 'parameters', 'disabled', 'references', 'measurement_archives', 'administrators'],
  members: ['type', 'members', 'a_members', 'b_members', 'center_address', 'address_map_field'],
  archive: ['type', 'read_url', 'write_url'],
  hostClass: ['name', 'data_sources', 'match_filters', 'exclude_filters'],
} as const;

const DROPPED: Record<string, string> = {
  bind_address: 'pSConfig has no bind address (only `lead-bind-address`)',
  expected_results: 'expected results were MaDDash thresholds; the Grafana agent takes them from its own displays',
  exclude_unmapped: 'pSConfig always skips the pairs without the `default-address-label` label',
  no_agents:
    'pSConfig\'s translator does not carry this list over: mark those addresses `"no-agent": true` in the result',
  host_properties: 'pSConfig address classes have no host properties',
  exact: 'pSConfig compares tags ignoring case, as MeshConfig did without `exact` (address_classes/filters/tag.py)',
};

/** The template as the file to write: 4-space indentation (as pSConfig's own examples), a final newline. */
export function translationText(t: { template: JsonObject }): string {
  return `${JSON.stringify(t.template, null, 4)}\n`;
}

export function translateMeshConfig(meshConfig: unknown, options: TranslateOptions = {}): MeshConfigTranslation {
  return new Translation(meshConfig, options).run();
}

/** Archive names (MA hosts) in the order met; the value says nothing. */
type ArchiveRefs = Set<string>;

interface Inherited {
  meta: JsonObject;
  tags: string[];
  archives: ArchiveRefs;
}

class Translation {
  private readonly notes: TranslationNote[] = [];
  private readonly archives: JsonObject = {};
  private readonly addresses: JsonObject = {};
  private readonly addressFrom = new Map<string, NotePath>();
  private readonly hosts: JsonObject = {};
  private readonly classes: JsonObject = {};
  private readonly groups: JsonObject = {};
  private readonly tests: JsonObject = {};
  private readonly schedules: JsonObject = {};
  private readonly tasks: JsonObject = {};
  private readonly taskFrom: Record<string, NotePath> = {};
  private readonly perfsonar5: boolean;
  /** Every measurement archive read: where (its list's path), its archive name and its MeshConfig `type`. */
  private readonly maTypes: { list: string; at: NotePath; host: string; type: unknown }[] = [];
  /** The MeshConfig parameter types of the tests translated. */
  private readonly testTypes = new Set<string>();

  constructor(
    private readonly mc: unknown,
    private readonly options: TranslateOptions,
  ) {
    this.perfsonar5 = options.perfsonar5 !== false;
  }

  run(): MeshConfigTranslation {
    const mc = isObject(this.mc) ? this.mc : {};
    if (!isObject(this.mc)) this.note([], 'warning', 'A MeshConfig file is a JSON object: nothing to translate.');
    this.checkFields(mc, [], FIELDS.top);
    if (typeof mc.description !== 'string')
      this.note(
        [],
        'information',
        "No top-level `description`: pSConfig 4.x's translator refuses such a file (its MeshConfig schema requires one); translated anyway.",
      );
    const meta: JsonObject = {
      'psconfig-translation': {
        'source-format': 'mesh-config-json',
        'time-translated': isoNow(this.options.now ?? new Date()),
      },
    };
    describe('', mc, meta);
    administrators('', mc, meta);

    const global = new Set<string>();
    this.measurementArchives(mc, ['measurement_archives'], global);
    // Top-level hosts take the top-level archives (Config.pm:144).
    this.convertHosts(mc.hosts, ['hosts'], { meta: {}, tags: [], archives: global });
    this.hostClasses(mc.host_classes);
    arrayOf(mc.organizations).forEach((org, i) => this.organization(org, ['organizations', i]));
    this.convertTests(mc.tests, global);
    this.archiveTypes();

    const template: JsonObject = { _meta: meta };
    const sections: [string, JsonObject, boolean][] = [
      ['archives', this.archives, false],
      ['addresses', this.addresses, true],
      ['address-classes', this.classes, false],
      ['hosts', this.hosts, false],
      ['groups', this.groups, true],
      ['tests', this.tests, true],
      ['schedules', this.schedules, false],
      ['tasks', this.tasks, true],
    ];
    for (const [name, value, required] of sections)
      if (required || Object.keys(value).length > 0) template[name] = value;
    return { template, notes: this.notes, taskFrom: this.taskFrom };
  }

  private note(path: NotePath, severity: TranslationNote['severity'], message: string): void {
    this.notes.push({ path, severity, message });
  }

  /** Notes for the fields of `obj` this translation does not read. */
  private checkFields(obj: JsonObject, path: NotePath, known: readonly string[]): void {
    for (const key of Object.keys(obj)) {
      if (known.includes(key) || key.startsWith('#')) continue;
      const why = DROPPED[key];
      this.note(
        [...path, key],
        'warning',
        why
          ? `\`${key}\` is not translated: ${why}.`
          : `\`${key}\` is not a MeshConfig field: not translated (pSConfig 4.x's translator refuses the file).`,
      );
    }
  }

  // ---- measurement archives ----

  /** An esmond archive per MA host, named by that host; the first definition of a name wins (Config.pm:279-297). */
  private measurementArchives(obj: JsonObject, path: NotePath, refs: ArchiveRefs): void {
    arrayOf(obj.measurement_archives).forEach((ma, i) => {
      const at = [...path, i];
      if (!isObject(ma)) return this.note(at, 'warning', 'A measurement archive is an object: not translated.');
      this.checkFields(ma, at, FIELDS.archive);
      const url = ma.read_url;
      const host = typeof url === 'string' ? urlHost(url) : undefined;
      if (!host)
        return this.note(at, 'warning', 'This measurement archive has no `read_url` with a host name: not translated.');
      refs.add(host);
      this.maTypes.push({ list: path.join('/'), at, host, type: ma.type });
      if (typeof ma.write_url === 'string' && ma.write_url !== url)
        this.note(
          [...at, 'write_url'],
          'warning',
          "The archive is written at `read_url` (as pSConfig's translator does): this different `write_url` is not used.",
        );
      const existing = this.archives[host];
      if (existing) {
        const data = isObject(existing) && isObject(existing.data) ? existing.data : {};
        if (data.url !== url)
          this.note(
            [...at, 'read_url'],
            'warning',
            `Archives are named by host: "${host}" already archives to ${String(data.url)}, so this URL is not used.`,
          );
        return;
      }
      this.archives[host] = {
        archiver: 'esmond',
        data: { url, 'measurement-agent': MESHCONFIG_ROLE_VARIABLES['measurement-agent'] },
      };
    });
  }

  /**
   * MeshConfig gave each measurement archive a test `type`; pSConfig's translator names archives by host and sends
   * every test's results to each. Noted where a host's archives at one level did not take every type the file's
   * tests have (so results now reach an archive MeshConfig did not send them to).
   */
  private archiveTypes(): void {
    const groups = new Map<string, { at: NotePath; types: Set<unknown> }>();
    for (const m of this.maTypes) {
      const key = `${m.list}\u0000${m.host}`;
      const g = groups.get(key) ?? { at: m.at, types: new Set<unknown>() };
      g.types.add(m.type);
      groups.set(key, g);
    }
    for (const [key, g] of groups) {
      const missing = [...this.testTypes].filter((t) => !g.types.has(t));
      if (missing.length === 0) continue;
      const host = key.slice(key.indexOf('\u0000') + 1);
      this.note(
        [...g.at, 'type'],
        'information',
        `In MeshConfig the archives on ${host} here took only ${[...g.types].map((t) => JSON.stringify(t)).join(', ')} results; archives are now per host (as pSConfig's translator makes them), so ${missing.join(', ')} results go there too.`,
      );
    }
  }

  // ---- organizations, sites, hosts, addresses ----

  private organization(org: unknown, path: NotePath): void {
    if (!isObject(org)) return this.note(path, 'warning', 'An organization is an object: not translated.');
    this.checkFields(org, path, FIELDS.organization);
    const meta: JsonObject = {};
    const refs = new Set<string>(); // the top-level archives reach tasks, not hosts (Config.pm:154)
    describe('organization', org, meta);
    administrators('organization', org, meta);
    this.measurementArchives(org, [...path, 'measurement_archives'], refs);
    const tags = stringsOf(org.tags);
    locate('organization', org, meta);
    this.convertHosts(org.hosts, [...path, 'hosts'], { meta, tags, archives: refs });
    arrayOf(org.sites).forEach((site, i) => {
      const at = [...path, 'sites', i];
      if (!isObject(site)) return this.note(at, 'warning', 'A site is an object: not translated.');
      this.checkFields(site, at, FIELDS.site);
      // Each site starts from its organisation's meta (Config.pm:166 writes into the organisation's own hash, so
      // a site's description leaked into the next sites).
      const siteMeta = { ...meta };
      const siteRefs = new Set(refs);
      describe('site', site, siteMeta);
      administrators('site', site, siteMeta);
      locate('site', site, siteMeta);
      this.measurementArchives(site, [...at, 'measurement_archives'], siteRefs);
      this.convertHosts(site.hosts, [...at, 'hosts'], {
        meta: siteMeta,
        tags: union(tags, stringsOf(site.tags)),
        archives: siteRefs,
      });
    });
  }

  private convertHosts(list: unknown, path: NotePath, from: Inherited): void {
    arrayOf(list).forEach((host, i) => this.convertHost(host, [...path, i], from));
  }

  private convertHost(host: unknown, path: NotePath, from: Inherited): void {
    if (!isObject(host)) return this.note(path, 'warning', 'A host is an object: not translated.');
    this.checkFields(host, path, FIELDS.host);
    const meta: JsonObject = { ...from.meta };
    describe('', host, meta);
    toolkitUrl(host, meta);
    administrators('host', host, meta);
    locate('host', host, meta);
    const tags = union(from.tags, stringsOf(host.tags));
    const refs = new Set(from.archives);
    this.measurementArchives(host, [...path, 'measurement_archives'], refs);
    const list = arrayOf(host.addresses);
    const displayName = meta[META_DISPLAY_NAME];
    let hostName: string | undefined;
    list.forEach((entry, i) => {
      const at = [...path, 'addresses', i];
      const address: JsonObject = {};
      if (typeof entry === 'string') address.address = entry;
      else if (isObject(entry) && typeof entry.address === 'string' && entry.address !== '') {
        this.checkFields(entry, at, FIELDS.address);
        address.address = entry.address;
      } else return this.note(at, 'warning', 'This address has no `address` string: not translated.');
      if (typeof host.lead_bind_address === 'string') address['lead-bind-address'] = host.lead_bind_address;
      if (typeof host.pscheduler_address === 'string') address['pscheduler-address'] = host.pscheduler_address;
      if (isObject(entry)) this.addressDetails(entry, address, at);
      if (typeof displayName === 'string') address._meta = { [META_DISPLAY_NAME]: displayName };
      hostName ??= this.hostObject(host, path, String(address.address), meta, tags, refs);
      address.host = hostName;
      const name = String(address.address);
      const earlier = this.addressFrom.get(name);
      if (earlier)
        this.note(
          at,
          'warning',
          `The address "${name}" is listed twice; this later one replaces the first (pSConfig names addresses by their address).`,
        );
      this.addressFrom.set(name, at);
      this.addresses[name] = orderAddress(address);
    });
    if (list.length === 0) this.note(path, 'warning', 'This host has no addresses: nothing to translate.');
  }

  /** lead/pscheduler address, tags and the three map lists of an address object (Config.pm:450-491). */
  private addressDetails(entry: JsonObject, address: JsonObject, at: NotePath): void {
    if (typeof entry.lead_bind_address === 'string') address['lead-bind-address'] = entry.lead_bind_address;
    if (typeof entry.pscheduler_address === 'string') address['pscheduler-address'] = entry.pscheduler_address;
    if (Array.isArray(entry.tags)) address.tags = stringsOf(entry.tags);
    const remotes: Record<string, JsonObject> = {};
    const remote = (key: unknown, where: NotePath): JsonObject | undefined => {
      if (typeof key !== 'string' || key === '') {
        this.note(where, 'warning', 'This map has no `remote_address`: not translated.');
        return undefined;
      }
      // A remote entry starts as the address itself (Config.pm:525-536).
      return (remotes[key] ??= { address: address.address });
    };
    arrayOf(entry.maps).forEach((map, i) => {
      const where = [...at, 'maps', i];
      const r = isObject(map) ? remote(map.remote_address, where) : undefined;
      if (!r || !isObject(map)) return;
      for (const field of arrayOf(map.fields)) {
        if (!isObject(field) || typeof field.name !== 'string' || typeof field.value !== 'string') continue;
        const labels = (r.labels ??= {}) as JsonObject;
        labels[field.name] = { address: field.value };
      }
    });
    arrayOf(entry.pscheduler_address_maps).forEach((map, i) => {
      const where = [...at, 'pscheduler_address_maps', i];
      const r = isObject(map) ? remote(map.remote_address, where) : undefined;
      if (!r || !isObject(map) || typeof map.service_address !== 'string') return;
      r['pscheduler-address'] = map.service_address;
      for (const label of Object.values((r.labels ?? {}) as JsonObject))
        if (isObject(label)) label['pscheduler-address'] = map.service_address;
    });
    arrayOf(entry.bind_maps).forEach((map, i) => {
      const where = [...at, 'bind_maps', i];
      const r = isObject(map) ? remote(map.remote_address, where) : undefined;
      if (!r || !isObject(map)) return;
      if (isDefined(map.bind_address))
        this.note(
          [...where, 'bind_address'],
          'warning',
          `\`bind_address\` is not translated: ${DROPPED.bind_address}.`,
        );
      if (typeof map.lead_bind_address !== 'string' || map.lead_bind_address === '') return;
      r['lead-bind-address'] = map.lead_bind_address;
      for (const label of Object.values((r.labels ?? {}) as JsonObject))
        if (isObject(label)) label['lead-bind-address'] = map.lead_bind_address;
    });
    if (Object.keys(remotes).length > 0) address['remote-addresses'] = remotes;
  }

  /** The `hosts` object of a MeshConfig host, made at its first address (Config.pm:495-517); its name. */
  private hostObject(
    host: JsonObject,
    path: NotePath,
    firstAddress: string,
    meta: JsonObject,
    tags: string[],
    refs: ArchiveRefs,
  ): string {
    const base = formatName(typeof host.description === 'string' && host.description ? host.description : firstAddress);
    let name = base || 'host';
    if (this.hosts[name] !== undefined) {
      let n = 2;
      while (this.hosts[`${name}_${n}`] !== undefined) n++;
      name = `${name}_${n}`;
      this.note(
        path,
        'warning',
        `Another host has the same name "${base}": this one is "${name}". (pSConfig's translator would merge the two, and its default excludes-self then drops every pair between their addresses.)`,
      );
    }
    const out: JsonObject = {};
    if (refs.size > 0) out.archives = [...refs];
    if (tags.length > 0) out.tags = tags;
    if (isDefined(host.no_agent)) out['no-agent'] = isTrue(host.no_agent);
    if (isDefined(host.disabled)) out.disabled = isTrue(host.disabled);
    if (Object.keys(meta).length > 0) out._meta = meta;
    this.hosts[name] = out;
    return name;
  }

  // ---- host classes ----

  private hostClasses(list: unknown): void {
    arrayOf(list).forEach((hc, i) => {
      const at: NotePath = ['host_classes', i];
      if (!isObject(hc)) return this.note(at, 'warning', 'A host class is an object: not translated.');
      this.checkFields(hc, at, FIELDS.hostClass);
      const name = typeof hc.name === 'string' ? hc.name : '';
      const sources = arrayOf(hc.data_sources);
      if (sources.length !== 1)
        return this.note(
          at,
          'warning',
          `A pSConfig address class has one data source; this host class has ${sources.length}: not translated.`,
        );
      if (!name) return this.note(at, 'warning', 'This host class has no `name`: not translated.');
      const type = isObject(sources[0]) ? sources[0].type : undefined;
      const dataSource =
        type === 'current_mesh' ? 'current-config' : type === 'requesting_agent' ? 'requesting-agent' : undefined;
      if (!dataSource)
        return this.note([...at, 'data_sources', 0], 'warning', `Unknown data source type ${JSON.stringify(type)}.`);
      const cls: JsonObject = { 'data-source': { type: dataSource } };
      const match = this.filterList(hc.match_filters, [...at, 'match_filters']);
      if (match) cls['match-filter'] = match;
      const exclude = this.filterList(hc.exclude_filters, [...at, 'exclude_filters']);
      if (exclude) cls['exclude-filter'] = exclude;
      this.classes[name] = cls;
    });
  }

  /** A MeshConfig filter list: every filter type must match, any filter of one type may (Config.pm:334-361). */
  private filterList(list: unknown, path: NotePath): JsonObject | undefined {
    const byType = new Map<string, JsonObject[]>();
    const items = Array.isArray(list) ? list : isObject(list) ? [list] : [];
    items.forEach((f, i) => {
      const built = this.filter(f, Array.isArray(list) ? [...path, i] : path);
      if (!built) return;
      const t = String(built.type);
      byType.set(t, [...(byType.get(t) ?? []), built]);
    });
    if (byType.size === 0) return undefined;
    return { type: 'and', filters: [...byType.values()].map((fs) => ({ type: 'or', filters: fs })) };
  }

  private filter(f: unknown, path: NotePath): JsonObject | undefined {
    if (!isObject(f)) {
      this.note(path, 'warning', 'A filter is an object: not translated.');
      return undefined;
    }
    const exact = isTrue(f.exact);
    if (isDefined(f.exact) && f.type === 'tag' && exact)
      this.note([...path, 'exact'], 'information', `\`exact\` is not translated: ${DROPPED.exact}.`);
    const children = (): JsonObject[] =>
      arrayOf(f.filters)
        .map((c, i) => this.filter(c, [...path, 'filters', i]))
        .filter((c): c is JsonObject => c !== undefined);
    const hostJq = (level: 'organization' | 'site'): JsonObject => {
      const key = `${level}-display-name`;
      const want = jsonText(f.description ?? '');
      const lost = this.namesMatchedOnlyByMeshConfig(level, want, exact);
      // pSConfig 4.x's translator compares exactly (Config.pm:399-408); MeshConfig's agent compared exactly only
      // with `exact`, else ignoring case and as a part of the description (perfsonar/mesh-config @ 6d0a989e,
      // lib/perfSONAR_PS/MeshConfig/Config/HostClassFilters/Organization.pm:40-51, Site.pm:40-51).
      if (!this.perfsonar5 || exact) {
        if (lost.length > 0)
          this.note(
            [...path, 'description'],
            'warning',
            `MeshConfig matched the ${level} ${lost.map((d) => JSON.stringify(d)).join(', ')} to ${JSON.stringify(want)} (ignoring case, or as a part of the description); pSConfig 4.x's translation compares exactly, so its hosts are not in this class.`,
          );
        return { type: 'host', jq: { script: `._meta."${key}"==${JSON.stringify(want)}` } };
      }
      if (lost.length > 0)
        this.note(
          [...path, 'description'],
          'information',
          // eslint-disable-next-line no-control-regex -- any character outside ASCII, U+0000 included
          `Compared as MeshConfig compared it (ignoring case, a part of the description matches), so the ${level} ${lost.map((d) => JSON.stringify(d)).join(', ')} still match${/[^\x00-\x7f]/.test(want) ? "; jq's ascii_downcase folds ASCII letters only" : ''} (pSConfig 4.x's translation compared exactly and matched none of them).`,
        );
      return {
        type: 'host',
        jq: {
          script: `._meta."${key}" | (type == "string") and (ascii_downcase | contains(${JSON.stringify(want)} | ascii_downcase))`,
        },
      };
    };
    switch (f.type) {
      case 'address_type':
        if (f.address_type === 'ipv4' || f.address_type === 'ipv6')
          return { type: 'ip-version', 'ip-version': f.address_type === 'ipv4' ? 4 : 6 };
        break;
      case 'and':
      case 'or':
        return { type: f.type, filters: children() };
      case 'host_class':
        if (typeof f.class === 'string') return { type: 'address-class', class: f.class };
        break;
      case 'netmask':
        if (typeof f.netmask === 'string') return { type: 'netmask', netmask: f.netmask };
        break;
      case 'not': {
        const inner = this.filterList(f.filters, [...path, 'filters']);
        if (inner) return { type: 'not', filter: inner };
        break;
      }
      case 'organization':
        return hostJq('organization');
      case 'site':
        return hostJq('site');
      case 'tag':
        if (typeof f.tag === 'string') return { type: 'tag', tag: f.tag };
        break;
    }
    this.note(path, 'warning', `This ${JSON.stringify(f.type)} filter cannot be translated.`);
    return undefined;
  }

  /** Organisation or site descriptions of the file that MeshConfig's non-exact comparison matched to `want` and
   *  an exact one does not (HostClassFilters/Organization.pm:40-51: equal, equal ignoring case, or a part of it). */
  private namesMatchedOnlyByMeshConfig(level: 'organization' | 'site', want: string, exact: boolean): string[] {
    if (exact) return [];
    const mc = isObject(this.mc) ? this.mc : {};
    const names = new Set<string>();
    for (const org of arrayOf(mc.organizations)) {
      if (!isObject(org)) continue;
      const list = level === 'organization' ? [org] : arrayOf(org.sites);
      for (const o of list) if (isObject(o) && typeof o.description === 'string') names.add(o.description);
    }
    return [...names].filter((d) => d !== want && d.toLowerCase().includes(want.toLowerCase()));
  }

  // ---- tests → groups, tests, schedules, tasks ----

  private convertTests(list: unknown, global: ArchiveRefs): void {
    const named = new Map<string, Map<string, string>>(); // section → canonical JSON → name
    const counts = new Map<string, number>();
    let untitled = 0;
    /** The name of an equal object already made, or a new one from `prefix` (group_0, throughput_0, …). */
    const nameFor = (section: JsonObject, kind: string, prefix: string, value: JsonObject): string => {
      const byJson = named.get(kind) ?? new Map<string, string>();
      named.set(kind, byJson);
      const key = canonical(value);
      const found = byJson.get(key);
      if (found) return found;
      const n = counts.get(prefix) ?? 0;
      counts.set(prefix, n + 1);
      const name = `${prefix}_${n}`;
      byJson.set(key, name);
      section[name] = value;
      return name;
    };

    arrayOf(list).forEach((test, i) => {
      const at: NotePath = ['tests', i];
      if (!isObject(test)) return this.note(at, 'warning', 'A test is an object: not translated.');
      this.checkFields(test, at, FIELDS.test);
      const title = typeof test.description === 'string' && test.description ? test.description : undefined;
      const group = this.group(test.members, [...at, 'members']);
      if (!group) return;
      const params = test.parameters;
      const kind = isObject(params) && typeof params.type === 'string' ? PARAMETER_TYPES[params.type] : undefined;
      if (!isObject(params) || !kind) {
        const type = isObject(params) ? params.type : undefined;
        return this.note(
          isObject(params) ? [...at, 'parameters', 'type'] : at,
          'warning',
          `${type === undefined ? 'No parameters type' : `Parameters type ${JSON.stringify(type)}`}: this test is not translated (pSConfig's translator knows ${Object.keys(PARAMETER_TYPES).join(', ')}).`,
        );
      }
      this.checkParameters(params, [...at, 'parameters'], kind);
      this.testTypes.add(params.type as string);
      const problems: FieldProblem[] = [];
      const spec = buildSpec(kind, params, problems);
      for (const p of problems)
        this.note([...at, 'parameters', p.parameter], 'warning', `${p.message}: \`${p.parameter}\` is not translated.`);

      const task: JsonObject = {};
      task.group = nameFor(this.groups, 'groups', 'group', group);
      task.test = nameFor(this.tests, 'tests', kind.testType, { type: kind.testType, spec });
      const schedule = buildSchedule(kind, params);
      if (Object.keys(schedule).length > 0) task.schedule = nameFor(this.schedules, 'schedules', 'schedule', schedule);
      const refs = new Set(global);
      this.measurementArchives(test, [...at, 'measurement_archives'], refs);
      if (refs.size > 0) task.archives = [...refs];
      const { tools, renamed } = buildTools(kind, params.tool, {
        disableBwctl: this.perfsonar5 || this.options.disableBwctl === true,
        pschedulerNames: this.perfsonar5,
      });
      if (tools.length > 0) task.tools = tools;
      if (this.perfsonar5) this.checkTools([...at, 'parameters', 'tool'], kind.testType, tools, renamed);
      if (isDefined(test.disabled)) task.disabled = isTrue(test.disabled);
      const reference = this.references(test.references, [...at, 'references']);
      if (this.perfsonar5 && title && reference['display-task-name'] === undefined)
        reference['display-task-name'] = title;
      if (Object.keys(reference).length > 0) task.reference = reference;
      const meta: JsonObject = {};
      describe('', test, meta);
      administrators('', test, meta);
      if (Object.keys(meta).length > 0) task._meta = meta;

      let name = title ? formatName(title) : '';
      if (!name) name = `task_${untitled++}`;
      if (this.tasks[name] !== undefined) {
        const base = name;
        let n = 2;
        while (this.tasks[`${base}_${n}`] !== undefined) n++;
        name = `${base}_${n}`;
        this.note(
          [...at, 'description'],
          'warning',
          `Another test has the same name "${base}": this one's task is "${name}" (pSConfig's translator would replace the earlier task with it).`,
        );
      }
      this.tasks[name] = task;
      this.taskFrom[name] = at;
      if (isTrue(params.force_bidirectional) && this.options.useForceBidirectional) {
        const copy = JSON.parse(JSON.stringify(task)) as JsonObject;
        copy['scheduled-by'] = 1;
        if (title)
          copy._meta = { ...(copy._meta as JsonObject), [META_DISPLAY_NAME]: `${title} (Scheduled by Destination)` };
        this.tasks[`${name}_scheduled_by_dest`] = copy;
        this.taskFrom[`${name}_scheduled_by_dest`] = at;
      }
    });
  }

  /**
   * The task's tools against pScheduler 5's (server/src/template/pscheduler/catalog.ts): a rename is said, a tool
   * pScheduler 5 does not have for the test type is a warning, and none at all means every task is refused
   * (perfsonar/pscheduler api-server tasks.py: `pick_tool` finds no tool in common).
   */
  private checkTools(path: NotePath, testType: string, tools: string[], renamed: [string, string][]): void {
    for (const [from, to] of renamed)
      this.note(
        path,
        'information',
        `Tool \`${from}\` is \`${to}\` in pScheduler: renamed, as the MeshConfig agent renamed it for pScheduler (pScheduler has no tool named \`${from}\`).`,
      );
    const missing = tools.filter((t) => {
      const data = pschedulerTool(t);
      return !data || data.bundle === 'obsolete' || !data.tests.includes(testType);
    });
    for (const t of missing) this.note(path, 'warning', `pScheduler 5 has no tool \`${t}\` for ${testType} tests.`);
    if (tools.length > 0 && missing.length === tools.length)
      this.note(
        path,
        'warning',
        `None of this task's tools is a pScheduler 5 ${testType} tool: pScheduler refuses each of its tasks ("no tool in common"); remove \`tools\` to let pScheduler choose.`,
      );
  }

  /** The group of a test's `members` (mesh, disjoint, star), or undefined with a note (Config.pm:565-595). */
  private group(members: unknown, path: NotePath): JsonObject | undefined {
    if (!isObject(members) || typeof members.type !== 'string') {
      this.note(path, 'warning', 'No `members` with a `type`: this test is not translated.');
      return undefined;
    }
    this.checkFields(members, path, FIELDS.members);
    for (const key of ['exclude_unmapped', 'no_agents'])
      if (isDefined(members[key]))
        this.note([...path, key], 'warning', `\`${key}\` is not translated: ${DROPPED[key]}.`);
    const selectors = (list: unknown, key: string): JsonObject[] =>
      arrayOf(list).flatMap((m, i) => {
        if (typeof m === 'string' && m !== '') return [selector(m)];
        this.note([...path, key, i], 'warning', 'A member is an address string: not translated.');
        return [];
      });
    let group: JsonObject;
    switch (members.type) {
      case 'mesh':
        group = { type: 'mesh', addresses: selectors(members.members, 'members') };
        break;
      case 'disjoint':
        group = {
          type: 'disjoint',
          'a-addresses': selectors(members.a_members, 'a_members'),
          'b-addresses': selectors(members.b_members, 'b_members'),
        };
        break;
      case 'star': {
        // A star is a disjoint group: the centre against every member (Config.pm:583-591).
        const centre = typeof members.center_address === 'string' && members.center_address !== '';
        group = {
          type: 'disjoint',
          'a-addresses': centre ? [selector(members.center_address as string)] : [],
          'b-addresses': selectors(members.members, 'members'),
        };
        if (!centre) this.note(path, 'warning', 'This star has no `center_address`: its group selects no pairs.');
        break;
      }
      default:
        this.note(
          [...path, 'type'],
          'warning',
          `Members of type ${JSON.stringify(members.type)} are not translated (pSConfig's translator knows mesh, disjoint and star): this test is skipped.`,
        );
        return undefined;
    }
    if (typeof members.address_map_field === 'string' && members.address_map_field !== '')
      group['default-address-label'] = members.address_map_field;
    return group;
  }

  private checkParameters(params: JsonObject, path: NotePath, kind: (typeof PARAMETER_TYPES)[string]): void {
    const read = readParameters(kind);
    for (const key of Object.keys(params)) {
      if (read.has(key) || key.startsWith('#')) continue;
      if (key === 'force_bidirectional' && (!isTrue(params[key]) || this.options.useForceBidirectional)) continue;
      const why = kind.dropped.includes(key) ? droppedReason(key) : undefined;
      this.note(
        [...path, key],
        why ? 'information' : 'warning',
        why
          ? `\`${key}\` is not translated: ${why}.`
          : `\`${key}\` is not a ${String(params.type)} parameter: not translated.`,
      );
    }
    if (
      params.protocol !== undefined &&
      kind.testType === 'throughput' &&
      params.protocol !== 'udp' &&
      params.protocol !== 'tcp'
    )
      this.note([...path, 'protocol'], 'warning', `Protocol ${JSON.stringify(params.protocol)} is taken as TCP.`);
  }

  /** `references` [{name, value}] → the task's `reference` object (Config.pm:558-564). */
  private references(list: unknown, path: NotePath): JsonObject {
    const out: JsonObject = {};
    arrayOf(list).forEach((r, i) => {
      if (isObject(r) && typeof r.name === 'string' && r.name !== '' && isDefined(r.value)) out[r.name] = r.value;
      else this.note([...path, i], 'warning', 'A reference needs a `name` and a `value`: not translated.');
    });
    return out;
  }
}

// ---- helpers writing `_meta` (Config.pm:213-267) ----

function prefixed(prefix: string, key: string): string {
  return prefix ? `${prefix}-${key}` : key;
}

function describe(prefix: string, obj: JsonObject, meta: JsonObject): void {
  if (typeof obj.description === 'string' && obj.description)
    meta[prefixed(prefix, META_DISPLAY_NAME)] = obj.description;
}

function administrators(prefix: string, obj: JsonObject, meta: JsonObject): void {
  const admins = arrayOf(obj.administrators);
  if (admins.length > 0) meta[prefixed(prefix, 'administrators')] = admins;
}

/** `location` fields as `<prefix>-location-<field>`. (Config.pm:240-251 reads `$obj->{$key}` instead of
 *  `$obj->{location}{$key}`, so no location ever reached the result there.) */
function locate(prefix: string, obj: JsonObject, meta: JsonObject): void {
  if (!isObject(obj.location)) return;
  for (const [key, value] of Object.entries(obj.location))
    if (isDefined(value)) meta[prefixed(prefix, `location-${key}`)] = value;
}

/** `toolkit_url` "auto": https://<first address>/toolkit (Config.pm:222-238). */
function toolkitUrl(host: JsonObject, meta: JsonObject): void {
  const url = host.toolkit_url;
  if (typeof url !== 'string' || !url) return;
  if (url.toLowerCase() !== 'auto') {
    meta['ps-toolkit-url'] = url;
    return;
  }
  const first = arrayOf(host.addresses)[0];
  const address = typeof first === 'string' ? first : isObject(first) ? first.address : undefined;
  if (typeof address !== 'string' || !address) return;
  meta['ps-toolkit-url'] = `https://${address.includes(':') ? `[${address}]` : address}/toolkit`;
}

function selector(member: string): JsonObject {
  return member.startsWith('host_class::') ? { class: member.slice('host_class::'.length) } : { name: member };
}

function stringsOf(v: unknown): string[] {
  return arrayOf(v).filter((s): s is string => typeof s === 'string');
}

/** MeshConfig tags are lists (Schema.pm); the Perl translator reads them as hashes (`keys %{...}`), which dies on
 *  a list: tags of organisations, sites and hosts are merged here as the lists they are. */
function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}

function orderAddress(a: JsonObject): JsonObject {
  const { address, host, ...rest } = a;
  return { address, host, ...rest };
}

function isoNow(d: Date): string {
  return `${d.toISOString().slice(0, 19)}+00:00`;
}
