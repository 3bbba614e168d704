// What every request of one archive carries: timeouts, size limits, and its token bound to the archive's origin.
// Reads send the token only with `tokenOnReads`; writes always, and never to another origin (they are refused).
import { ArchiveError } from './errors';
import { originOf, type HttpOptions } from './http';
import type { ArchiveOptions } from './types';
import { normaliseArchiveUrl } from './url';

/**
 * Default budget of one paged read, all pages together: bytes, and objects by kind. A year of one-minute points is
 * 525,600; an esmond search rarely returns more than some tens of thousands of metadata objects. Held in memory
 * these budgets stay well under 512 MB (test/archive/budgets.test.ts measures it).
 */
export const DEFAULT_MAX_READ_BYTES = 128 * 1024 * 1024;
export const DEFAULT_MAX_READ_POINTS = 1_000_000;
export const DEFAULT_MAX_READ_METADATA = 200_000;

/** The origin the archive's token belongs to: the one of the URL the user configured. */
export function archiveOrigin(archive: ArchiveOptions): string {
  return originOf(normaliseArchiveUrl(archive.url)) as string;
}

function base(archive: ArchiveOptions): HttpOptions {
  return {
    timeoutMs: archive.timeoutMs,
    deadlineMs: archive.deadlineMs,
    maxBytes: archive.maxResponseBytes,
    userAgent: archive.userAgent,
  };
}

export function readHttp(archive: ArchiveOptions): HttpOptions {
  const token = archive.tokenOnReads ? archive.token : undefined;
  return { ...base(archive), credentials: token ? { token, origin: archiveOrigin(archive) } : undefined };
}

/** Options of a write to `url`: refused outright when `url` is not on the archive's origin. */
export function writeHttp(archive: ArchiveOptions, url: string): HttpOptions {
  const origin = archiveOrigin(archive);
  if (originOf(url) !== origin)
    throw new ArchiveError(
      `refusing to write to ${url}: it is not on the archive's origin ${origin}, and the archive's token is only sent there`,
      { kind: 'other-origin', url },
    );
  return { ...base(archive), credentials: archive.token ? { token: archive.token, origin } : undefined };
}

/** Running total of a paged read against its budget; `add` throws a clear `too-large` error past it. */
export class ReadBudget {
  private bytes = 0;
  private items = 0;
  private readonly maxBytes: number;
  private readonly maxItems: number;

  constructor(
    archive: ArchiveOptions,
    private readonly what: 'points' | 'metadata objects',
  ) {
    this.maxBytes = archive.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
    this.maxItems = archive.maxReadItems ?? (what === 'points' ? DEFAULT_MAX_READ_POINTS : DEFAULT_MAX_READ_METADATA);
  }

  add(bytes: number, items: number, url: string): void {
    this.bytes += bytes;
    this.items += items;
    if (this.items > this.maxItems)
      throw new ArchiveError(
        `stopped reading ${url}: more than ${this.maxItems.toLocaleString('en-US')} ${this.what} in one read (budget of a paged read); narrow the search or the time range`,
        { kind: 'too-large', url },
      );
    if (this.bytes > this.maxBytes)
      throw new ArchiveError(
        `stopped reading ${url}: more than ${Math.round(this.maxBytes / 1024 / 1024)} MB in one read (budget of a paged read); narrow the search or the time range`,
        { kind: 'too-large', url },
      );
  }
}
