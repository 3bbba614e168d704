// Each host's load in one version, for the diff's "exclusive load before and after": the schedule model's figures
// (sum of run duration / repeat over the tasks a host takes part in, template/schedule/task-model.ts) keyed by the
// address the tasks name. Only the model, not the simulation: the load is what the template asks of a host, which
// is what a reviewer compares; whether the runs then fit is `psconfig-tools schedule`'s question.
import type { ExpandTasksResult } from '../../../../common/protocol';
import { buildScheduleModel, hostLoads } from '../schedule';
import type { LoadShares } from './diff';

/** Per host address, the exclusive and normal load of the tasks this expansion creates (none when it failed). */
export function scheduleHostLoads(r: Pick<ExpandTasksResult, 'combinations'>): Map<string, LoadShares> {
  const out = new Map<string, LoadShares>();
  for (const h of hostLoads(buildScheduleModel(r.combinations)))
    out.set(h.address, { exclusive: h.exclusiveLoad, normal: h.normalLoad });
  return out;
}
