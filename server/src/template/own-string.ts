// Strings kept in long-lived caches must not keep alive the text they were cut from. V8 makes a substring of 13 or
// more characters a view into its parent (a "sliced string"): a 20-character address cut from a 1 MB template and
// stored in a module-level memo keeps the whole template in memory after its document is closed, and a memo of a
// few thousand such keys keeps a few thousand templates (the fuzzer's server heap grew by 15 MB per 1,000 inputs).

/** A copy of `s` that shares no storage with the string it was cut from. */
export function ownString(s: string): string {
  // Concatenating makes a new string; slicing it flattens that into fresh storage of s.length + 1 characters.
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/**
 * Longest string a value cache keeps as a key (addresses, names, short values repeat; a long string rarely does,
 * and would make a cache bounded by its number of entries unbounded in size).
 */
export const MAX_CACHED_KEY_CHARS = 512;

/** The key to store for `s` in a long-lived cache, or undefined when it is too long to be worth keeping. */
export function cacheKey(s: string): string | undefined {
  return s.length > MAX_CACHED_KEY_CHARS ? undefined : ownString(s);
}
