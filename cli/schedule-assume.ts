// `psconfig-tools schedule --assume NAME=VALUE`: one of the schedule model's assumptions changed for this run
// (server/src/template/schedule/assumptions.ts; docs/schedule.md "Simplifications"), e.g. a shortened horizon to
// compare with a test pScheduler, or the agent's lifetimes of a site that changed them.
import { DEFAULT_ASSUMPTIONS, type ScheduleAssumptions } from '../server/src/template/schedule';

/** Applies `NAME=VALUE` to `into`; returns a problem in words, or undefined. */
export function applyAssumption(into: Partial<ScheduleAssumptions>, given: string | undefined): string | undefined {
  const m = /^([A-Za-z]+)=(.*)$/.exec(given ?? '');
  const names = Object.keys(DEFAULT_ASSUMPTIONS).join(', ');
  if (!m) return `--assume needs NAME=VALUE (got ${given || 'nothing'}); names: ${names}`;
  const [, name, value] = m;
  if (!Object.prototype.hasOwnProperty.call(DEFAULT_ASSUMPTIONS, name))
    return `--assume ${name}: no such assumption; names: ${names}`;
  const key = name as keyof ScheduleAssumptions;
  const current = DEFAULT_ASSUMPTIONS[key];
  if (typeof current === 'boolean') {
    if (value !== 'true' && value !== 'false')
      return `--assume ${name} needs true or false (got ${value || 'nothing'})`;
    (into as Record<string, unknown>)[key] = value === 'true';
    return undefined;
  }
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    return `--assume ${name} needs a number of at least 0 (got ${value || 'nothing'})`;
  if ((key === 'horizonSeconds' || key === 'checkIntervalSeconds' || key === 'taskMinTtlSeconds') && n <= 0)
    return `--assume ${name} needs a number above 0 (got ${value})`;
  (into as Record<string, unknown>)[key] = n;
  return undefined;
}
