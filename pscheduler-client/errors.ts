// Typed failures of pScheduler reads. Every message says what happened and where.

export type PSchedulerErrorKind =
  | 'http' // non-2xx status (a 404: no pScheduler API at that URL)
  | 'redirect' // 3xx: never followed
  | 'not-json' // a body that is not JSON
  | 'bad-shape' // JSON, but not the shape pScheduler answers (a list of tasks, a run object)
  | 'refused' // ECONNREFUSED
  | 'dns'
  | 'tls' // certificate or handshake problem
  | 'timeout' // connect, headers, body or whole-request deadline
  | 'network'
  | 'too-large' // the body passed maxResponseBytes
  | 'bad-url';

export class PSchedulerError extends Error {
  readonly kind: PSchedulerErrorKind;
  readonly url?: string;
  readonly status?: number;

  constructor(message: string, init: { kind: PSchedulerErrorKind; url?: string; status?: number; cause?: unknown }) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'PSchedulerError';
    this.kind = init.kind;
    this.url = init.url;
    this.status = init.status;
  }
}

/** A short, single-line excerpt of a body for error messages. */
export function snippet(body: string, max = 160): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
