// The Hosts view's settings (`psconfig.hosts.*`), read into one typed object (pure: the raw configuration values in,
// anything of the wrong type dropped with a sentence saying so). Which URL each host is read at and how its
// certificate is checked are restricted settings (package.json restrictedConfigurations): in a restricted workspace
// nothing is read anyway (client/src/hosts/hosts-view.ts), and the workspace cannot point a read elsewhere.
export interface HostsSettings {
  /** Hosts to read instead of the template's agents (empty: the agents). */
  addresses: string[];
  /** ISO 8601 span of the runs read (default P1D). */
  since: string;
  /** host → its pScheduler API URL (default https://HOST/pscheduler). */
  urls: Record<string, string>;
  /** Hosts whose certificate is not checked (self-signed); `*` for all. */
  insecure: string[];
  /** host → a PEM file of the CA(s) to verify its certificate with; `*` for all. */
  caFiles: Record<string, string>;
  requestTimeoutSeconds: number;
  maxTasks: number;
  maxRunsPerTask: number;
}

export const DEFAULT_HOSTS_SETTINGS: HostsSettings = {
  addresses: [],
  since: 'P1D',
  urls: {},
  insecure: [],
  caFiles: {},
  requestTimeoutSeconds: 10,
  maxTasks: 2000,
  maxRunsPerTask: 300,
};

const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.map((x) => x.trim()).filter(Boolean) : undefined;

const stringMap = (v: unknown): Record<string, string> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string')
    ? (v as Record<string, string>)
    : undefined;

const whole = (v: unknown, min: number, max: number): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : undefined;

/** `get(key)` reads `psconfig.hosts.<key>`; problems name each setting ignored and why. */
export function hostsSettingsOf(get: (key: string) => unknown): { settings: HostsSettings; problems: string[] } {
  const problems: string[] = [];
  const d = DEFAULT_HOSTS_SETTINGS;
  const take = <T>(key: string, parse: (v: unknown) => T | undefined, fallback: T, what: string): T => {
    const raw = get(key);
    if (raw === undefined || raw === null) return fallback;
    const v = parse(raw);
    if (v === undefined) problems.push(`psconfig.hosts.${key} is ignored: it must be ${what}`);
    return v ?? fallback;
  };
  return {
    settings: {
      addresses: take('addresses', strings, d.addresses, 'a list of host names or addresses'),
      since: take(
        'since',
        (v) => (typeof v === 'string' && v.trim() ? v.trim() : undefined),
        d.since,
        'an ISO 8601 duration',
      ),
      urls: take('urls', stringMap, d.urls, 'an object of host → URL'),
      insecure: take('insecure', strings, d.insecure, 'a list of hosts'),
      caFiles: take('caFiles', stringMap, d.caFiles, 'an object of host → PEM file'),
      requestTimeoutSeconds: take(
        'requestTimeoutSeconds',
        (v) => whole(v, 1, 600),
        d.requestTimeoutSeconds,
        'a whole number from 1 to 600',
      ),
      maxTasks: take('maxTasks', (v) => whole(v, 1, 100_000), d.maxTasks, 'a whole number from 1 to 100000'),
      maxRunsPerTask: take(
        'maxRunsPerTask',
        (v) => whole(v, 0, 100_000),
        d.maxRunsPerTask,
        'a whole number from 0 to 100000',
      ),
    },
    problems,
  };
}
