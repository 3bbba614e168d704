// Small wording helpers every part of the product shares (server, CLI, extension, webview pages): counts in
// English with thousands separators, and a noun's singular or plural form. Pure, no imports.

/** `1,204`: a count as the product writes it (en-US grouping). */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** `task` or `tasks` (`many` for irregular plurals: `fixes`, `addresses`). */
export function noun(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** `1 task`, `0 tasks`, `1,204 tasks`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${noun(n, one, many)}`;
}

/** `1204 tasks`: the count without separators, as the editor's hovers, code lenses and Tasks view write it. */
export function pluralPlain(n: number, one: string, many = `${one}s`): string {
  return `${n} ${noun(n, one, many)}`;
}
