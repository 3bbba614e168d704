// A group naming an address twice used to double that host's load in the schedule model: pSConfig's agent creates
// each identical task once per agent (perfsonar/psconfig 5.2.4 psconfig/client/pscheduler/task_manager.py:315-331
// _need_new_task, duplicate_new_task_map; the live suite (test/pscheduler, scenario slip-50s) saw one
// pScheduler task for a list group [a, a]), so the model leaves the duplicates out and counts them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildScheduleModel, hostLoads } from '../../../server/src/template/schedule/task-model';
import { addrs, expand, sel } from '../expand/helpers';

const A = 'host-a.example.net';
const B = 'host-b.example.net';

function mesh(members: string[]): Record<string, unknown> {
  return {
    addresses: addrs(A, B),
    groups: { g: { type: 'mesh', addresses: sel(...members) } },
    tests: {
      tp: {
        type: 'throughput',
        spec: { source: '{% address[0] %}', dest: '{% address[1] %}', duration: 'PT30S' },
      },
    },
    schedules: { hourly: { repeat: 'PT1H', slip: 'PT1H' } },
    tasks: { t: { group: 'g', test: 'tp', schedule: 'hourly' } },
  };
}

test('a mesh [a, b, a]: two tasks in the model, not four, and the hosts carry the load of two', async () => {
  const r = await expand(mesh([A, B, A]));
  // pSConfig's mesh over positions A, B, A (self pairs excluded): A→B, B→A, B→A, A→B; the last two repeat.
  assert.equal(r.combinations.length, 4);
  const model = buildScheduleModel(r.combinations);
  assert.equal(model.tasks.length, 2);
  assert.equal(model.identical, 2);
  assert.equal(model.skipped, 0);
  // Each host takes part in both tasks (throughput: source and destination): its exclusive load is the sum of
  // the two runs a hour, once each. Counted twice, it would be double that.
  const [ab, ba] = model.tasks;
  const expected = (ab.durationSeconds + ba.durationSeconds) / 3600;
  for (const h of hostLoads(model)) {
    assert.equal(h.tasks, 2, h.address);
    assert.ok(Math.abs(h.exclusiveLoad - expected) < 1e-12, `${h.address}: ${h.exclusiveLoad} vs ${expected}`);
  }
  // The same as the mesh that names each address once.
  const once = hostLoads(buildScheduleModel((await expand(mesh([A, B]))).combinations));
  assert.deepEqual(hostLoads(model), once);
});
