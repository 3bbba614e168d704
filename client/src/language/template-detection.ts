// Which plain JSON documents are pSConfig templates, decided from their text alone (no `vscode` here so it
// is unit-tested directly). Runs on every JSON file the user opens, so it must stay cheap: it walks tokens
// with jsonc-parser's scanner, looks only at top-level keys, and stops as soon as it has an answer.
import { createScanner, SyntaxKind } from 'jsonc-parser';

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

/** The keys of the top-level object, in order, read lazily (an empty sequence when the top is not an object). */
export function* topLevelKeys(text: string, scanLimit = DEFAULT_SCAN_LIMIT): Generator<string> {
  const scanner = createScanner(text, true);
  let depth = 0;
  let expectKey = false;
  let started = false;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (scanner.getTokenOffset() > scanLimit) return;
    if (kind === SyntaxKind.LineCommentTrivia || kind === SyntaxKind.BlockCommentTrivia) continue;
    if (!started) {
      if (kind !== SyntaxKind.OpenBraceToken) return; // top level is not an object
      started = true;
      depth = 1;
      expectKey = true;
      continue;
    }
    switch (kind) {
      case SyntaxKind.OpenBraceToken:
      case SyntaxKind.OpenBracketToken:
        depth++;
        break;
      case SyntaxKind.CloseBraceToken:
      case SyntaxKind.CloseBracketToken:
        depth--;
        if (depth === 0) return; // end of the top-level object
        break;
      case SyntaxKind.CommaToken:
        if (depth === 1) expectKey = true;
        break;
      case SyntaxKind.StringLiteral:
        if (depth === 1 && expectKey) {
          expectKey = false;
          yield scanner.getTokenValue();
        }
        break;
      default:
        if (depth === 1) expectKey = false;
    }
  }
}
