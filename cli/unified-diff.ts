// A unified diff (`diff -u`, what `patch` and `git apply` read) of two versions of a text, line by line.
// Written here rather than taken from a package: it is one well-known algorithm (Myers' O((N+M)·D) shortest edit
// script) on lines, after the common head and tail are cut off, and the fixes change a few lines of large files,
// so D stays small. A pathological pair (more than MAX_EDIT_DISTANCE changed lines after trimming) is shown as one
// replaced block, which is still a correct diff.

/** Lines with their line ends (`\r\n` stays in the line: a CRLF file diffs and patches as it is). */
function splitLines(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (let n = text.indexOf('\n'); n >= 0; n = text.indexOf('\n', at)) {
    out.push(text.slice(at, n + 1));
    at = n + 1;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

type Op = { kind: ' ' | '-' | '+'; line: string };

/** Round d keeps a frontier of 2d+3 entries: 3,000 rounds keep ~36 MB. */
const MAX_EDIT_DISTANCE = 3_000;

/** The edit script turning a into b (Myers, keeping each round's frontier to walk back). */
function editScript(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= Math.min(max, MAX_EDIT_DISTANCE); d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    if (found >= 0) break;
  }
  if (found < 0)
    return [...a.map((line) => ({ kind: '-' as const, line })), ...b.map((line) => ({ kind: '+' as const, line }))];
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d]; // the frontier before round d, indexed from k = -d - 1
    const at = (k: number): number => prev[k + d + 1];
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const pk = down ? k + 1 : k - 1;
    const px = at(pk);
    const py = px - pk;
    while (x > px + (down ? 0 : 1) && y > py + (down ? 1 : 0)) {
      ops.push({ kind: ' ', line: a[--x] });
      y--;
    }
    if (down) ops.push({ kind: '+', line: b[--y] });
    else ops.push({ kind: '-', line: a[--x] });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: ' ', line: a[--x] });
    y--;
  }
  return ops.reverse();
}

/**
 * The unified diff of `before` → `after` with `context` lines around each change, or '' when they are equal.
 * `fromName`/`toName` go on the `---`/`+++` lines.
 */
export function unifiedDiff(before: string, after: string, fromName: string, toName: string, context = 3): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops: Op[] = [
    ...a.slice(0, head).map((line) => ({ kind: ' ' as const, line })),
    ...editScript(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map((line) => ({ kind: ' ' as const, line })),
  ];
  let out = `--- ${fromName}\n+++ ${toName}\n`;
  // hunks: runs of changes with up to 2·context unchanged lines between them
  let i = 0;
  const oldLine = new Int32Array(ops.length + 1);
  const newLine = new Int32Array(ops.length + 1);
  for (let j = 0; j < ops.length; j++) {
    oldLine[j + 1] = oldLine[j] + (ops[j].kind !== '+' ? 1 : 0);
    newLine[j + 1] = newLine[j] + (ops[j].kind !== '-' ? 1 : 0);
  }
  while (i < ops.length) {
    while (i < ops.length && ops[i].kind === ' ') i++;
    if (i >= ops.length) break;
    const start = Math.max(0, i - context);
    let end = i;
    for (;;) {
      while (end < ops.length && ops[end].kind !== ' ') end++;
      let next = end;
      while (next < ops.length && ops[next].kind === ' ') next++;
      if (next < ops.length && next - end <= 2 * context) end = next;
      else break;
    }
    const stop = Math.min(ops.length, end + context);
    const oldCount = oldLine[stop] - oldLine[start];
    const newCount = newLine[stop] - newLine[start];
    out += `@@ -${range(oldLine[start], oldCount)} +${range(newLine[start], newCount)} @@\n`;
    for (let j = start; j < stop; j++) {
      const { kind, line } = ops[j];
      out += kind + line;
      if (!line.endsWith('\n')) out += '\n\\ No newline at end of file\n';
    }
    i = stop;
  }
  return out;
}

/** `start,count` as diff writes it: 1-based, and the line before an empty range. */
function range(start0: number, count: number): string {
  if (count === 0) return `${start0},0`;
  return count === 1 ? `${start0 + 1}` : `${start0 + 1},${count}`;
}
