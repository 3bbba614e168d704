// What the server holds in memory, for the `psconfig/serverMemory` request (the fuzzer's leak check, and anyone
// wondering why the process is large): each thread's V8 heap after a full collection, beside the process's resident
// size. Resident size alone cannot tell a leak from a heap V8 grew for one large expansion and keeps for later;
// the live heap after a full collection can.
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import type { HeapFigures } from '../../../../common/protocol';

let collector: (() => void) | undefined | null;

/** V8's full collection: `global.gc` under --expose-gc, otherwise enabled once for this process. */
function gcFunction(): (() => void) | undefined {
  if (collector !== undefined) return collector ?? undefined;
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return (collector = exposed);
  try {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as () => void;
  } catch {
    collector = null;
  }
  return collector ?? undefined;
}

/** A full collection of this thread's heap, when one can be forced (false otherwise). */
export function collectGarbage(): boolean {
  const gc = gcFunction();
  if (!gc) return false;
  // Twice: the first collection runs finalisers whose objects the second one frees.
  gc();
  gc();
  return true;
}

const mb = (bytes: number): number => Math.round((bytes / (1024 * 1024)) * 10) / 10;

/**
 * This thread's heap, after a full collection when one can be forced (`collected` says whether it was); `entries`:
 * what the thread's per-document stores hold (to show they hold nothing for closed documents).
 */
export function heapFigures(thread: HeapFigures['thread'], entries?: Record<string, number>): HeapFigures {
  const collected = collectGarbage();
  // Development only: PSCONFIG_HEAP_SNAPSHOT_DIR=dir writes each thread's heap there at every request (to diff).
  const dir = process.env.PSCONFIG_HEAP_SNAPSHOT_DIR;
  if (dir) writeHeapSnapshot(join(dir, `${thread}-${Date.now()}.heapsnapshot`));
  const h = getHeapStatistics();
  return {
    thread,
    collected,
    heapUsedMb: mb(h.used_heap_size),
    heapTotalMb: mb(h.total_heap_size),
    externalMb: mb(h.external_memory),
    spacesMb: Object.fromEntries(getHeapSpaceStatistics().map((sp) => [sp.space_name, mb(sp.physical_space_size)])),
    ...(entries ? { entries } : {}),
  };
}
