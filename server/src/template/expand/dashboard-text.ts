// A task's dashboard as the language server can give it to an editor without the extension's panel (the Dashboard
// lens in Neovim, Emacs, Helix): the grid's shape, its configured directions and the archives they write to. The
// latest results need the archive, which the language server never reads: the text names the CLI command that does.
import { type DashboardTaskPairs } from '../../../../common/protocol';
import { plural } from '../../../../common/text';
import { identicalText } from '../../../../common/combination-text';

/** Directions listed at most (a 200-member mesh has 39,800; the count above the list stays whole). */
export const MAX_DIRECTION_LINES = 5000;

/** `path` quoted for a POSIX shell when it needs to be. */
export function shellWord(path: string): string {
  return /^[\w./:@%+=,-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/**
 * The text document of one task's dashboard. `templatePath` is the template's file path when it has one (for the
 * command line that reads the latest results), else its URI.
 */
export function dashboardText(pairs: DashboardTaskPairs, templatePath: string, cliPath?: string): string {
  const lines: string[] = [];
  const count = pairs.directions.length / 6;
  const shape = [pairs.testType, pairs.groupType ? `${pairs.groupType} group` : undefined]
    .filter((s): s is string => s !== undefined)
    .join(', ');
  lines.push(`Dashboard of task ${pairs.task} in ${templatePath}`);
  lines.push(
    `${shape ? `${shape}: ` : ''}${plural(pairs.rows.length, 'row')} × ${plural(pairs.cols.length, 'column')}, ` +
      `${plural(count, 'configured direction')}`,
  );
  if (pairs.failed > 0)
    lines.push(
      `${plural(pairs.failed, 'combination')} could not be expanded and ${pairs.failed === 1 ? 'is' : 'are'} not on the grid${pairs.error ? `: ${pairs.error}` : ''}`,
    );
  else if (pairs.error) lines.push(`error: ${pairs.error}`);
  if (pairs.identical && pairs.identicalTo)
    lines.push(
      `${plural(pairs.identical, 'combination')} not on the grid, ${pairs.identical === 1 ? 'it is' : 'the first is'} ${identicalText(pairs.identicalTo)}`,
    );
  lines.push('');
  lines.push('Archives the directions write to:');
  if (pairs.archives.length === 0) lines.push('  (none with an esmond URL: the dashboard has nothing to read)');
  pairs.archives.forEach((url, i) => lines.push(`  [${i + 1}] ${url}`));
  lines.push('');
  lines.push('The latest result of every direction, as the VS Code extension draws the grid:');
  lines.push(`  ${cliPath ?? 'psconfig-tools'} dashboard ${shellWord(templatePath)} --task ${shellWord(pairs.task)}`);
  lines.push('');
  lines.push('Configured directions (source → destination, archives):');
  const shown = Math.min(count, MAX_DIRECTION_LINES);
  for (let i = 0; i < shown; i++) {
    const d = i * 6;
    const set = pairs.archiveSets[pairs.directions[d + 5]] ?? [];
    const archives = set.length ? `  ${set.map((a) => `[${a + 1}]`).join(' ')}` : '';
    lines.push(
      `  ${pairs.endpoints[pairs.directions[d + 3]]} → ${pairs.endpoints[pairs.directions[d + 4]]}${archives}`,
    );
  }
  if (count > shown) lines.push(`  … and ${plural(count - shown, 'more direction')}`);
  return `${lines.join('\n')}\n`;
}
