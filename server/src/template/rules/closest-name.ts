// Near-miss suggestions ("did you mean …") for names and property keys, in bounded time: names longer than
// MAX_SUGGEST_LENGTH get no suggestion, and the edit distance is computed only within a band of the largest
// distance that could still be suggested, so one comparison costs O(length × band), never length².

/** pSConfig names are identifiers; a "name" longer than this is not a typo of one and gets no suggestion. */
export const MAX_SUGGEST_LENGTH = 128;

/** The largest distance suggested for names of these lengths: a third of the longer one, at least 1. */
function allowedDistance(a: number, b: number): number {
  return Math.max(1, Math.floor(Math.max(a, b) / 3));
}

/** The candidate closest to `name` by edit distance (case-insensitive), if close enough to be a likely typo. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length > MAX_SUGGEST_LENGTH) return undefined;
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    if (c === name || c.length > MAX_SUGGEST_LENGTH) continue;
    // Only distances below the best so far, and within what could be suggested for this pair, are of interest.
    const cap = Math.min(bestScore - 1, allowedDistance(name.length, c.length));
    if (cap < 0) continue;
    const d = boundedDistance(lower, c.toLowerCase(), cap);
    if (d < bestScore) {
      bestScore = d;
      best = c;
      if (d === 0) break;
    }
  }
  return best;
}

/**
 * Levenshtein distance of `a` and `b` if it is at most `max`, else Infinity. Only the cells within `max` of the
 * diagonal can hold such a distance (Ukkonen's band), so the work is O(min(|a|, |b|) × max).
 */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return Infinity;
  if (a.length > b.length) [a, b] = [b, a];
  const n = a.length;
  const m = b.length;
  const OUT = max + 1; // anything above max is as good as infinite
  let prev = new Array<number>(m + 1);
  let cur = new Array<number>(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j <= max ? j : OUT;
  for (let i = 1; i <= n; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(m, i + max);
    cur[from - 1] = from - 1 === 0 && i <= max ? i : OUT;
    let rowMin = cur[from - 1];
    for (let j = from; j <= to; j++) {
      const sub = prev[j - 1] + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1);
      const del = j <= i - 1 + max ? prev[j] + 1 : OUT;
      const ins = cur[j - 1] + 1;
      const v = Math.min(sub, del, ins, OUT);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (to < m) cur[to + 1] = OUT;
    if (rowMin > max) return Infinity;
    [prev, cur] = [cur, prev];
  }
  const d = prev[m];
  return d <= max ? d : Infinity;
}
