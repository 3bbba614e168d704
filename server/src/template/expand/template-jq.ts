// The one batched jq run behind every `{% jq %}` of every combination of a template (psconfig.md §2.2).
// The input carries shared tables once (addresses, hosts, contexts, archive lists, task/test/schedule) and each
// item only indexes them; jq rebuilds the document pSConfig's _jq_obj gives each combination.
import { JqRunner, runJqBatch } from '../jq';
import { checkJqCompiles, JqValueResult } from '../jq/batch';
import { AddressNode, JsonObject, strList, TemplateView } from './template-view';

/** Above this many combinations, the batch is split over two concurrent jq processes (one per core). */
const PARALLEL_JQ_THRESHOLD = 10_000;

const MISSING: JqValueResult = { ok: false, error: 'jq result missing' };

const DOC_FIELDS = ['addresses', 'archives', 'contexts', 'hosts', 'task', 'test', 'schedule'] as const;
type DocField = (typeof DOC_FIELDS)[number];

// A pure path from the root (`.addresses[0]._meta."display-name"`, `.task.tools[]?`), possibly followed by
// `| ...`: the rest only sees that path's output, so no other field of the document is observable.
const PATH_HEAD =
  /^\s*\.([A-Za-z_]\w*)((?:\s*(?:\.[A-Za-z_]\w*|\.?"(?:[^"\\]|\\.)*"|\[\s*-?\d*\s*\]|\[\s*"(?:[^"\\]|\\.)*"\s*\]|\?))*)\s*(\||$)/;

/**
 * Document fields the expressions can observe. Building fewer fields per combination is most of jq's work on a
 * big mesh; any expression that is not a plain root path (or a path piped onward) gets the whole document.
 */
export function fieldsNeeded(expressions: string[]): Set<DocField> {
  const out = new Set<DocField>();
  for (const e of expressions) {
    const m = PATH_HEAD.exec(e);
    const f = m?.[1] as DocField | undefined;
    if (!m || !f || !(DOC_FIELDS as readonly string[]).includes(f)) return new Set(DOC_FIELDS);
    out.add(f);
  }
  return out;
}

function docProgram(fields: Set<DocField>, withSet: boolean): string {
  const parts: Record<DocField, string> = {
    addresses: 'addresses: [$m[] | $a[.]]',
    archives: 'archives: (if .[2] >= 0 then $ar[.[2]] else [] end)',
    contexts: 'contexts: [$m[] | $cx[.]]',
    hosts: 'hosts: [$m[] | $h[.]]',
    task: 'task: $t[.[1]].task',
    test: 'test: $t[.[1]].test',
    schedule: 'schedule: $t[.[1]].schedule',
  };
  const own = (['addresses', 'archives', 'contexts', 'hosts'] as DocField[])
    .filter((f) => fields.has(f))
    .map((f) => parts[f]);
  const object = `{${own.join(', ')}}`;
  // task/test/schedule come whole from the shared table (schedule only when the task has one, as pSConfig does).
  const shared = fields.has('task') || fields.has('test') || fields.has('schedule') ? ' + $t[.[1]]' : '';
  const doc = `(${object}${shared})`;
  return `.a as $a | .h as $h | .cx as $cx | .ar as $ar | .t as $t | .c[] | .[3:] as $m | ${withSet ? `[.[0], ${doc}]` : doc}`;
}

export async function runTemplateJq(
  jq: JqRunner,
  sets: string[][],
  items: number[][],
  nodeList: AddressNode[],
  view: TemplateView,
  archiveTables: JsonObject[][],
  shared: JsonObject[],
): Promise<(item: number, expression: number) => JqValueResult> {
  if (!items.length) return () => MISSING;
  const all = [...new Set(sets.flat())];
  const compiles = await checkJqCompiles(all, jq);
  const runnable = sets.map((s) => s.filter((e) => !compiles.get(e)));
  const fields = fieldsNeeded(runnable.flat());
  const a = nodeList.map((n) => n.data);
  const h = fields.has('hosts') ? nodeList.map((n) => (n.hostRef && view.hosts.get(n.hostRef)) || {}) : [];
  const cx = fields.has('contexts')
    ? nodeList.map((n) =>
        strList(n.data.contexts).flatMap((r) => (view.contexts.has(r) ? [view.contexts.get(r) as JsonObject] : [])),
      )
    : [];
  const ar = fields.has('archives') ? archiveTables : [];
  const itemsProgram = docProgram(fields, true);
  const docsProgram = docProgram(fields, false);
  const chunks = items.length > PARALLEL_JQ_THRESHOLD ? 2 : 1;
  const size = Math.ceil(items.length / chunks);
  const results = runnable.some((s) => s.length)
    ? await Promise.all(
        Array.from({ length: chunks }, (_, k) =>
          runJqBatch(jq, {
            expressionSets: runnable,
            itemsProgram,
            docsProgram,
            input: JSON.stringify({ a, h, cx, ar, t: shared, c: items.slice(k * size, (k + 1) * size) }),
            // Perl allows jq 10 s per run of one document; a batch gets that plus 1 ms per combination.
            timeoutMs: jq.limits.timeoutMs + size,
          }),
        ),
      )
    : [];
  // Where each expression of a set sits among that set's runnable (compiling) expressions.
  const positions = sets.map((s, k) => s.map((e) => runnable[k].indexOf(e)));
  return (item, expression) => {
    const setIdx = items[item][0];
    const e = sets[setIdx][expression];
    if (e === undefined) return MISSING;
    const compileError = compiles.get(e);
    if (compileError) return { ok: false, error: compileError };
    const batch = results[Math.floor(item / size)];
    if (!batch) return MISSING;
    if (!batch.ok) return { ok: false, error: batch.error };
    return batch.items[item % size]?.[positions[setIdx][expression]] ?? MISSING;
  };
}
