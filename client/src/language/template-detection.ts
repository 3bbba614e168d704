// Which plain JSON documents are pSConfig templates, decided from their text alone (no `vscode` here so it
// is unit-tested directly). Runs on every JSON file the user opens, so it must stay cheap: a small scanner that
// skips strings and comments, looks only at keys of the top-level object, and stops as soon as it has an answer.
// (Hand-written rather than jsonc-parser's scanner: that package's `main` is a UMD build esbuild cannot bundle.)

/** Past this many characters we give up: a template whose top-level `tasks`/`groups` come later is rare. */
export const DEFAULT_SCAN_LIMIT = 4_000_000;

/** The top-level keys that together mark a template (both must be present). */
const MARKER_KEYS = ['tasks', 'groups'] as const;

/**
 * True when `text` is a JSON object whose top level has both `tasks` and `groups` keys (values of any type:
 * the language server reports wrong types). Comments and trailing commas are tolerated; the walk stops once
 * both keys are seen, when the top-level value is not an object, or after `scanLimit` characters.
 */
export function looksLikeTemplate(text: string, scanLimit = DEFAULT_SCAN_LIMIT): boolean {
  const found = new Set<string>();
  for (const key of topLevelKeys(text, scanLimit)) {
    if ((MARKER_KEYS as readonly string[]).includes(key)) {
      found.add(key);
      if (found.size === MARKER_KEYS.length) return true;
    }
  }
  return false;
}

/**
 * True when `text` looks like a MeshConfig file (perfSONAR 4.0): top-level `organizations` and `tests`, and none
 * of a template's `addresses`, `groups`, `tasks`, `includes`. The server says what it is and offers a translation
 * (the same test as server/src/template/meshconfig/detect.ts, on keys only).
 */
export function looksLikeMeshConfig(text: string, scanLimit = DEFAULT_SCAN_LIMIT): boolean {
  let organizations = false;
  let tests = false;
  for (const key of topLevelKeys(text, scanLimit)) {
    if (key === 'addresses' || key === 'groups' || key === 'tasks' || key === 'includes') return false;
    if (key === 'organizations') organizations = true;
    else if (key === 'tests') tests = true;
  }
  return organizations && tests;
}

/** The pSConfig agents' own configuration files, which `psconfig.files` globs such as `**\/psconfig/**\/*.json`
 *  also match: never templates (grafana-agent.json has its own JSON schema). */
export function isAgentConfigFile(path: string): boolean {
  return /(^|[\\/])(grafana|pscheduler)-agent\.json$/i.test(path);
}

/** The keys of the top-level object, in order, read lazily (an empty sequence when the top is not an object). */
export function* topLevelKeys(text: string, scanLimit = DEFAULT_SCAN_LIMIT): Generator<string> {
  const end = Math.min(text.length, scanLimit);
  let i = skipTrivia(text, 0, end);
  if (text.charCodeAt(i) !== 0x7b /* { */) return;
  let depth = 1;
  let expectKey = true;
  i++;
  while (i < end) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      const close = stringEnd(text, i, end);
      if (depth === 1 && expectKey) {
        expectKey = false;
        yield decodeString(text.slice(i, close + 1));
      }
      i = close + 1;
      continue;
    }
    if (ch === 0x2f /* / */ || isSpace(ch)) {
      const next = skipTrivia(text, i, end);
      if (next > i) {
        i = next;
        continue;
      }
    }
    if (ch === 0x7b || ch === 0x5b /* { [ */) depth++;
    else if (ch === 0x7d || ch === 0x5d /* } ] */) {
      if (--depth === 0) return;
    } else if (ch === 0x2c /* , */) {
      if (depth === 1) expectKey = true;
    } else if (depth === 1) expectKey = false;
    i++;
  }
}

function isSpace(ch: number): boolean {
  return ch === 0x20 || ch === 0x09 || ch === 0x0a || ch === 0x0d || ch === 0xfeff;
}

/** Index of the first character at or after `i` that is neither whitespace nor inside a comment. */
function skipTrivia(text: string, i: number, end: number): number {
  while (i < end) {
    const ch = text.charCodeAt(i);
    if (isSpace(ch)) i++;
    else if (ch === 0x2f && text.charCodeAt(i + 1) === 0x2f) {
      const nl = text.indexOf('\n', i + 2);
      i = nl < 0 ? end : nl + 1;
    } else if (ch === 0x2f && text.charCodeAt(i + 1) === 0x2a) {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? end : close + 2;
    } else break;
  }
  return i;
}

/** Index of the closing quote of the string starting at `start` (or the line end / text end when unterminated). */
function stringEnd(text: string, start: number, end: number): number {
  for (let j = start + 1; j < end; j++) {
    const ch = text.charCodeAt(j);
    if (ch === 0x5c /* \\ */) j++;
    else if (ch === 0x22 || ch === 0x0a) return j;
  }
  return end;
}

function decodeString(quoted: string): string {
  try {
    const v: unknown = JSON.parse(quoted);
    if (typeof v === 'string') return v;
  } catch {
    // unterminated or bad escape: the raw text is good enough for a key comparison
  }
  return quoted.replace(/^"|"$/g, '');
}
