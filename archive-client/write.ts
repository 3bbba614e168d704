// The write side of the interface: register metadata (POST {base_url}), post one result (POST <base_uri>) and
// bulk PUT (<metadata_uri>), each with `Authorization: Token <token>`. esmond answers 201 (the seed says 200);
// both are success. A write to a URI outside the archive's origin is refused (the token never goes there).
import { ArchiveError } from './errors';
import { requestJson } from './http';
import { writeHttp } from './request-options';
import type { ArchiveOptions, Metadata } from './types';
import { normaliseArchiveUrl } from './url';

export interface MetadataRegistration {
  'subject-type': string;
  'event-types': { 'event-type': string; summaries: { 'summary-type': string; 'summary-window': number }[] }[];
  [field: string]: unknown;
}

export interface BulkItem {
  ts: number;
  val: { 'event-type': string; val: unknown }[];
}

export async function registerMetadata(archive: ArchiveOptions, body: MetadataRegistration): Promise<Metadata> {
  const url = normaliseArchiveUrl(archive.url);
  const res = await requestJson(url, { ...writeHttp(archive, url), method: 'POST', body });
  if (!res.json || typeof res.json !== 'object' || Array.isArray(res.json)) {
    throw new ArchiveError(`${url} accepted the metadata (HTTP ${res.status}) but returned no metadata object`, {
      kind: 'not-json',
      url,
      status: res.status,
    });
  }
  return res.json as Metadata;
}

export async function postPoint(archive: ArchiveOptions, baseUri: string, ts: number, val: unknown): Promise<number> {
  const url = new URL(baseUri, normaliseArchiveUrl(archive.url)).toString();
  return (await requestJson(url, { ...writeHttp(archive, url), method: 'POST', body: { ts, val } })).status;
}

export async function putBulk(archive: ArchiveOptions, metadataUri: string, data: BulkItem[]): Promise<number> {
  let url = new URL(metadataUri, normaliseArchiveUrl(archive.url)).toString();
  if (!url.endsWith('/')) url += '/'; // esmond's router requires the slash on archive/{key}/
  return (await requestJson(url, { ...writeHttp(archive, url), method: 'PUT', body: { data } })).status;
}
