// The one wording of a combination the agent does not create: refused by pScheduler's own checks, or identical to
// another of its agent. Shared by the server, the CLI, the dashboard and the Tasks tree; the types are protocol.ts's.
import type { IdenticalTaskRef, PSchedulerRefusal } from './protocol';
import { noun } from './text';

/** `identical to mesh a → b (same task JSON): pSConfig creates it once` */
export function identicalText(ref: IdenticalTaskRef): string {
  const parts = ref.addressValues.length ? ref.addressValues : ref.addresses;
  return `identical to ${ref.task} ${parts.join(' → ') || '(no addresses)'} (same task JSON): pSConfig creates it once`;
}

/** One line per refusal: `pScheduler would refuse this task: test throughput (schema 1): <first problem>`. */
export function refusalText(refusals: PSchedulerRefusal[]): string {
  const first = refusals[0];
  const more = refusals.reduce((n, r) => n + r.problems.length, 0) - 1;
  return `pScheduler would refuse this task: ${refusalPartLabel(first)}: ${first.problems[0]}${more > 0 ? ` (and ${more} more ${noun(more, 'problem')})` : ''}`;
}

/** `test throughput (schema 1)`, `archive central (http, schema 1)`, `context ns of participant 2 (linuxnns)`, `tools`. */
export function refusalPartLabel(r: PSchedulerRefusal): string {
  const version = r.version !== undefined ? `schema ${r.version}` : undefined;
  switch (r.part) {
    case 'test':
      return `test ${r.plugin ?? '?'}${version ? ` (${version})` : ''}`;
    case 'tools':
      return `tools for the ${r.plugin ?? '?'} test`;
    case 'archive': {
      const what = [r.plugin, version].filter(Boolean).join(', ');
      return `archive ${r.name ?? (r.index !== undefined ? `#${r.index + 1}` : '?')}${what ? ` (${what})` : ''}`;
    }
    case 'context': {
      const who = r.participant !== undefined ? ` of participant ${r.participant + 1}` : '';
      return `context ${r.name ?? (r.index !== undefined ? `#${r.index + 1}` : '?')}${who}${r.plugin ? ` (${r.plugin})` : ''}`;
    }
  }
}
