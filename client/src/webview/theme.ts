// Chart colours from the VS Code theme. Canvas cannot use CSS variables, so they are read from the computed
// style (explorer.css maps each to a --vscode-* variable with a fallback) and re-read when the theme changes.

export interface Palette {
  fg: string;
  grid: string;
  series: string[];
  failure: string;
  marker: string;
}

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(name).trim();
  return v || fallback;
}

export function readPalette(): Palette {
  return {
    fg: cssVar('--ex-fg', '#444'),
    grid: cssVar('--ex-grid', 'rgba(128,128,128,0.25)'),
    series: [
      cssVar('--ex-c1', '#3794ff'),
      cssVar('--ex-c2', '#89d185'),
      cssVar('--ex-c3', '#cca700'),
      cssVar('--ex-c4', '#b180d7'),
      cssVar('--ex-c5', '#f14c4c'),
    ],
    failure: cssVar('--ex-failure', '#f14c4c'),
    marker: cssVar('--ex-marker', '#d18616'),
  };
}

/** Call `fn` when VS Code switches theme (it changes the body class). */
export function onThemeChange(fn: () => void): void {
  new MutationObserver(fn).observe(document.body, {
    attributes: true,
    attributeFilter: ['class', 'data-vscode-theme-kind'],
  });
}
