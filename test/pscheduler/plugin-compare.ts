// The project's verdict on each expanded task (pScheduler would refuse it: `refused`, or not) against pScheduler's
// own plug-in programs (plugin-checks.ts), template by template. The templates are data: the live scenarios, and
// with `full` every official example kept in test/fixtures/psconfig/examples/ and every file under
// test/fixtures/migration/ (when that folder exists), so files added there are picked up.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type ExpandedCombination } from '../../common/protocol';
import { expandText } from '../../server/src/template/expand/from-text';
import { fixturesDir, repoRoot } from '../fixtures';
import { harnessDir } from './harness/prefix';
import type { PluginChecker, PluginVerdict } from './plugin-checks';
import { refusalText } from '../../common/combination-text';

export interface TaskComparison {
  task: string;
  addresses: string[];
  /** The project: pScheduler would refuse it (its first sentence), or undefined. */
  project: string | undefined;
  pscheduler: PluginVerdict;
}

export interface TemplateComparison {
  /** Repository-relative path. */
  file: string;
  /** Set when the file was not compared: not a template, rejected as a whole, nothing built. */
  notCompared?: string;
  /** Tasks the agent would post (built, not identical to an earlier one). */
  posted: number;
  /** Of those, how many were given to pScheduler's programs (the rest sampled out, see `perGroup`). */
  checked: TaskComparison[];
  disagreements: TaskComparison[];
}

function jsonFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? jsonFiles(p) : f.endsWith('.json') ? [p] : [];
    })
    .sort();
}

/** The templates compared: the scenarios, and with `full` the official examples and the migrated files. */
export function comparedTemplates(full: boolean): string[] {
  const scenarios = jsonFiles(join(harnessDir, 'scenarios'));
  if (!full) return scenarios;
  return [
    ...scenarios,
    ...jsonFiles(join(fixturesDir, 'psconfig', 'examples')),
    ...jsonFiles(join(fixturesDir, 'migration')),
  ];
}

const isTemplate = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && 'tasks' in v && 'groups' in v;

/**
 * Expands `file` and gives the tasks the agent would post to pScheduler's programs. `perGroup` bounds the work on
 * big meshes: of each template task's combinations with the same project verdict (the same refusal sentence, or
 * none), the first `perGroup` are checked (Infinity: all).
 */
export async function compareTemplate(
  checker: PluginChecker,
  file: string,
  perGroup = Infinity,
): Promise<TemplateComparison> {
  return compareTemplateText(checker, relative(repoRoot(), file), readFileSync(file, 'utf8'), perGroup);
}

/** compareTemplate on a template's text (a migrated file's translation or fix), named `rel` in the results. */
export async function compareTemplateText(
  checker: PluginChecker,
  rel: string,
  text: string,
  perGroup = Infinity,
): Promise<TemplateComparison> {
  const file = join(repoRoot(), rel);
  const empty = (why: string, posted = 0): TemplateComparison => ({
    file: rel,
    notCompared: why,
    posted,
    checked: [],
    disagreements: [],
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return empty('not JSON');
  }
  if (!isTemplate(parsed)) return empty('not a template (no tasks and groups)');
  const x = await expandText({ uri: `file://${file}`, version: null, text });
  if (x.error) return empty(`the project says the agent rejects it: ${x.error.slice(0, 200)}`);
  // What the agent posts: every built task JSON but the identical ones (those it creates once). A combination whose
  // task JSON was built but failed for another reason than a refusal is not posted either.
  const posted = x.combinations.filter(
    (c): c is ExpandedCombination & { pscheduler: NonNullable<ExpandedCombination['pscheduler']> } =>
      c.pscheduler !== undefined && c.identicalTo === undefined && (c.error === undefined || c.refused !== undefined),
  );
  if (!posted.length) return empty('no task built', 0);
  const seen = new Map<string, number>();
  const chosen = posted.filter((c) => {
    const key = `${c.task}\0${c.refused ? refusalText(c.refused) : ''}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return n <= perGroup;
  });
  const checked = await Promise.all(
    chosen.map(async (c): Promise<TaskComparison> => ({
      task: c.task,
      addresses: c.addressValues,
      project: c.refused ? refusalText(c.refused) : undefined,
      pscheduler: await checker.checkTask(c.pscheduler),
    })),
  );
  return {
    file: rel,
    posted: posted.length,
    checked,
    disagreements: checked.filter((t) => (t.project !== undefined) === t.pscheduler.accepted),
  };
}

/** One line per template: `file: N posted, M checked, R refused by pScheduler, D disagreements`. */
export function comparisonLine(c: TemplateComparison): string {
  if (c.notCompared) return `${c.file}: not compared (${c.notCompared})`;
  const refused = c.checked.filter((t) => !t.pscheduler.accepted).length;
  return `${c.file}: ${c.posted} posted, ${c.checked.length} checked, ${refused} refused by pScheduler, ${c.disagreements.length} disagreement${c.disagreements.length === 1 ? '' : 's'}`;
}

export function disagreementText(t: TaskComparison): string {
  return (
    `${t.task} ${t.addresses.join(' → ')}: project ${t.project ?? 'accepts'}; pScheduler ` +
    (t.pscheduler.accepted ? `accepts (tool ${t.pscheduler.tool})` : `refuses: ${t.pscheduler.problems.join(' | ')}`)
  );
}
