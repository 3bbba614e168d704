// The Hosts view's reads (its own bundle, dist/hosts-reader.js: undici loads only when hosts are first read). The
// same reader and limits as `psconfig-tools hosts` (pscheduler-client/: GET only, no credentials, bounded time, size
// and concurrency); what the settings say per host becomes its options here.
import { defaultPSchedulerUrl, durationSeconds, readHosts, type HostReadOptions } from '../../../pscheduler-client';
import type { HostRead } from '../../../common/protocol';
import type { HostsSettings } from './hosts-settings';

export interface PlannedReads {
  options: HostReadOptions[];
  /** Settings that cannot be used, one sentence each (the read goes on without them). */
  problems: string[];
}

/** The options each host is read with. `readCa` reads a CA file (bounded by the caller). */
export function planReads(hosts: string[], s: HostsSettings, readCa: (file: string) => string): PlannedReads {
  const problems: string[] = [];
  const seconds = durationSeconds(s.since);
  let since = s.since;
  if (seconds === undefined || seconds <= 0 || seconds > 31 * 86400) {
    problems.push(
      `psconfig.hosts.since ${JSON.stringify(s.since)} is not an ISO 8601 duration up to P31D: P1D is read`,
    );
    since = 'P1D';
  }
  const options = hosts.map((host) => {
    let url = s.urls[host] ?? defaultPSchedulerUrl(host);
    if (!/^https?:\/\//i.test(url)) {
      problems.push(
        `psconfig.hosts.urls: ${host} → ${url} is not an http(s) URL; ${defaultPSchedulerUrl(host)} is read`,
      );
      url = defaultPSchedulerUrl(host);
    }
    const o: HostReadOptions = {
      host,
      url,
      since,
      timeoutMs: s.requestTimeoutSeconds * 1000,
      deadlineMs: s.requestTimeoutSeconds * 3000,
      maxTasks: s.maxTasks,
      maxRunsPerTask: s.maxRunsPerTask,
      insecure: s.insecure.includes(host) || s.insecure.includes('*'),
    };
    const caFile = s.caFiles[host] ?? s.caFiles['*'];
    if (caFile !== undefined)
      try {
        o.ca = readCa(caFile);
      } catch (e) {
        problems.push(`psconfig.hosts.caFiles: ${host}: ${e instanceof Error ? e.message : String(e)}`);
      }
    return o;
  });
  return { options, problems };
}

export function readPlanned(plan: PlannedReads): Promise<HostRead[]> {
  return readHosts(plan.options);
}
