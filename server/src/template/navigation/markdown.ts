// Template text shown in markdown (hovers, completion documentation) is the template author's, not ours: a name
// with a backtick must not end its code span, a jq expression must not turn into a link or an image. Everything
// user-controlled goes through these helpers, which also clip what is too long to read in a hover.

const MAX_SHOWN = 200;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The longest run of backticks in `text`. */
function longestTicks(text: string): number {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return longest;
}

/**
 * An inline code span showing `text` literally (CommonMark: the delimiter is a backtick run longer than any inside,
 * padded with a space when the text starts or ends with a backtick; no escapes apply in code spans). Line breaks
 * become spaces, as they would anyway.
 */
export function code(text: string, max = MAX_SHOWN): string {
  const t = clip(text, max).replace(/[\r\n]+/g, ' ');
  const ticks = '`'.repeat(longestTicks(t) + 1);
  const pad = t.startsWith('`') || t.endsWith('`') || t === '' ? ' ' : '';
  return `${ticks}${pad}${t}${pad}${ticks}`;
}

/** Plain text with every character that means something in markdown (or HTML) escaped. */
export function plain(text: string, max = 4 * MAX_SHOWN): string {
  return clip(text, max).replace(/[\\`*_{}[\]()#+\-.!|<>~&"'=]/g, (c) => `\\${c}`);
}

/** A fenced code block that no line of `text` can close early (the fence is longer than any backtick run). */
export function fenced(language: string, text: string): string {
  const fence = '`'.repeat(Math.max(3, longestTicks(text) + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}
