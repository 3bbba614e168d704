// Why a template makes no pScheduler task at all, in words a CI log can show: a schedule report of "0 of 0 tasks
// lose runs" must not read as a pass. Counted from the expansion's combinations, as the model left them out.
import type { ExpandedCombination } from '../../../../common/protocol';
import type { ScheduleModel } from './task-model';
import { noun } from '../../../../common/text';

/** undefined when some task would run; else one sentence saying why none would. */
export function whyNothingRuns(combinations: readonly ExpandedCombination[], model: ScheduleModel): string | undefined {
  if (model.tasks.length > 0) return undefined;
  if (combinations.length === 0)
    return 'no task would run: the template expands to no combination (no task, every task disabled, or groups that select no address pair)';
  let refused = 0;
  let failed = 0;
  let identical = 0;
  let other = 0;
  for (const c of combinations) {
    if (c.refused) refused++;
    else if (c.error) failed++;
    else if (c.identicalTo !== undefined) identical++;
    else other++;
  }
  const parts = [
    refused ? `${refused} pScheduler would refuse` : '',
    failed ? `${failed} fail to expand` : '',
    identical ? `${identical} identical to another` : '',
    other ? `${other} of a test type pScheduler does not have` : '',
  ].filter(Boolean);
  const first = combinations.find((c) => c.error);
  return (
    `no task would run: of the template's ${combinations.length} ${noun(combinations.length, 'combination')}, ${parts.join(', ')}` +
    (first?.error ? ` (task ${first.task}: ${first.error})` : '') +
    '; psconfig-tools expand lists each'
  );
}
