// What the .vsix may hold, as paths inside the extension's folder (vsce stores LICENSE as LICENSE.txt, README.md as
// readme.md and CHANGELOG.md as changelog.md). The package test reads the .vsix against it, the end-to-end suite the
// folder code-server installed it into. `.vscodeignore` is the allow-list that makes it so.

/** Files the extension cannot run or be shown without. */
export const REQUIRED_FILES = [
  'package.json',
  'dist/client.js',
  'dist/archive-explorer.js',
  'dist/language-client.js',
  'dist/dashboard.js',
  'dist/compare.js',
  'dist/hosts-reader.js',
  'dist/server.js',
  'dist/cli.js',
  'dist/webview/explorer.js',
  'dist/webview/explorer.css',
  'dist/webview/uPlot.min.css',
  'dist/webview/dashboard.js',
  'dist/webview/dashboard.css',
  'dist/schedule.js',
  'dist/webview/schedule.js',
  'dist/webview/schedule.css',
  'schemas/psconfig.schema.json',
  'schemas/psconfig-grafana-agent.schema.json',
  'syntaxes/psconfig.tmLanguage.json',
  'syntaxes/psconfig-variables.injection.json',
  'language-configuration.json',
  'media/perfsonar.svg',
  'media/icon.png',
  'LICENSE.txt',
  'readme.md',
  'changelog.md',
];

/** Every file the package may hold: the bundles, the data they read, and what the gallery shows. */
export const ALLOWED_FILES: RegExp[] = [
  /^package\.json$/,
  /^(readme|changelog)\.md$/,
  /^LICENSE\.txt$/,
  /^language-configuration\.json$/,
  /^dist\/[a-z-]+\.js$/,
  /^dist\/webview\/[A-Za-z.-]+\.(js|css)$/,
  /^schemas\/psconfig\.schema\.json$/,
  /^schemas\/psconfig-grafana-agent\.schema\.json$/,
  /^schemas\/pscheduler\/[a-z0-9-]+\.json$/,
  /^syntaxes\/[A-Za-z.-]+\.json$/,
  /^media\/(perfsonar\.svg|icon\.png)$/,
];

/** Files of the package no pattern allows (sources, tests, maps, node_modules, stray files). */
export function unexpectedFiles(files: string[]): string[] {
  return files.filter((f) => !ALLOWED_FILES.some((re) => re.test(f)));
}
