// The counts job: per-task counts without jq or includes (the engine's countCombinations), for lenses and hovers.
import { countCombinations } from '../../template/expand';
import { parseTemplate, toValue } from '../../template/parse';
import type { TaskFact } from '../../template/navigation/hover';

/** Task counts of `text`; tolerant of syntax errors. */
export function countTasks(text: string): TaskFact[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = toValue(parseTemplate(text).root);
  }
  return countCombinations(value).tasks.map((t) => ({
    task: t.task,
    count: t.count,
    identical: t.identical,
    agents: t.agents,
    disabled: t.disabled,
    error: t.error,
  }));
}
