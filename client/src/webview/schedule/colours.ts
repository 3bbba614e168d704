// Colours of the timeline: one per template task (VS Code's chart colours first, then hues spread by the golden
// angle, so neighbouring tasks differ), and the theme's foreground, muted and error colours from schedule.css.

const CHART_VARS: [string, string][] = [
  ['--vscode-charts-blue', '#1a85ff'],
  ['--vscode-charts-orange', '#d18616'],
  ['--vscode-charts-green', '#388a34'],
  ['--vscode-charts-purple', '#8a3fc7'],
  ['--vscode-charts-yellow', '#c9a800'],
  ['--vscode-charts-red', '#c5361b'],
];

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

export interface TimelinePalette {
  fg: string;
  muted: string;
  grid: string;
  error: string;
  bg: string;
  font: string;
  task(i: number): string;
}

export function readTimelinePalette(): TimelinePalette {
  const charts = CHART_VARS.map(([v, f]) => cssVar(v, f));
  const cache: string[] = [];
  return {
    fg: cssVar('--tl-fg', '#333'),
    muted: cssVar('--tl-muted', '#777'),
    grid: cssVar('--tl-gridline', 'rgba(128,128,128,0.3)'),
    error: cssVar('--tl-error', '#e51400'),
    bg: cssVar('--tl-bg', '#fff'),
    font: getComputedStyle(document.body).fontFamily || 'sans-serif',
    task: (i) => (cache[i] ??= i < charts.length ? charts[i] : `hsl(${Math.round((i * 137.508) % 360)}, 62%, 48%)`),
  };
}
