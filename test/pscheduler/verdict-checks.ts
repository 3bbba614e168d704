// The verdict scenarios (scenarios.ts `verdicts`): which tasks pSConfig's agent creates, skips or has refused, and
// whether it rejects the whole template, compared with the project's expansion of the same template (expandText:
// the template-level `error`, per combination `error`, `refused`, `identicalTo`, common/protocol.ts isCreated).
//
// The live verdicts, from the agent's first pass (agent.ts agentErrors) and the tasks pScheduler holds:
//   rejected  the template: an ERROR of category psconfig_schema_validation_error (psconfig base_agent.py
//             _process_psconfig 354-365, psconfig.validate()) or psconfig_ref_validation_error (388-402,
//             validate_refs); no cached copy, so the pass ends with nothing (the agent's cache directory is new);
//   skipped   a task the agent could not expand: "Unable to create valid JSON after expanding template" (psconfig
//             client/psconfig/parsers/base_template.py 60-66; logged by psconfig/pscheduler/agent.py 185-188);
//   refused   a task pScheduler refused: "Problem adding test ..." (client/pscheduler/task_manager.py);
//   created   a task pScheduler stored (told apart by its spec's duration, unique per template task here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isCreated, type ExpandTasksResult } from '../../common/protocol';
import { expandText } from '../../server/src/template/expand/from-text';
import type { ScenarioData } from './live-checks';
import { SCENARIOS, scenarioPath } from './scenarios';

export interface Verdicts {
  /** The whole template rejected (nothing of it created). */
  rejected: boolean;
  /** Durations (spec.duration) of the tasks created, sorted. */
  created: string[];
  /** Tasks the agent could not expand (skipped, never posted). */
  skipped: number;
  /** Tasks pScheduler refused. */
  refused: number;
}

const REJECTED = /category=psconfig_(schema|ref)_validation_error/;
const SKIPPED = /Unable to create valid JSON after expanding template/;
const REFUSED = /Problem adding test/;

export function liveVerdicts(data: ScenarioData): Verdicts {
  const errors = data.result.agentErrors ?? [];
  return {
    rejected: errors.some((e) => REJECTED.test(e)),
    created: data.result.tasks.map((t) => String(t.spec.duration)).sort(),
    skipped: errors.filter((e) => SKIPPED.test(e)).length,
    refused: errors.filter((e) => REFUSED.test(e)).length,
  };
}

export async function scenarioExpansion(name: string): Promise<ExpandTasksResult> {
  const s = SCENARIOS.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scenario ${name}`);
  const path = scenarioPath(s);
  return expandText({ uri: `file://${path}`, version: null, text: readFileSync(path, 'utf8') });
}

/** The project's verdicts on the template (every combination is the one agent's: one address per template). */
export function modelVerdicts(x: ExpandTasksResult): Verdicts & { perTask: Record<string, string> } {
  const posted = x.combinations.filter((c) => c.identicalTo === undefined);
  const perTask: Record<string, string> = {};
  for (const c of x.combinations)
    perTask[c.task] = c.identicalTo
      ? 'identical'
      : c.refused
        ? 'refused'
        : c.error !== undefined
          ? 'error'
          : isCreated(c)
            ? 'created'
            : 'not built';
  return {
    rejected: x.error !== undefined,
    created: posted
      .filter(isCreated)
      .map((c) => String(c.pscheduler?.test.spec.duration))
      .sort(),
    skipped: posted.filter((c) => c.error !== undefined && !c.refused).length,
    refused: posted.filter((c) => c.refused).length,
    perTask,
  };
}

const liveFacts: Record<string, (d: ScenarioData) => void> = {
  'rejected-excludes-self'(d) {
    const errors = d.result.agentErrors ?? [];
    assert.equal(d.result.tasks.length, 0);
    assert.ok(
      errors.some((e) => /category=psconfig_schema_validation_error/.test(e) && /excludes-self/.test(e)),
      errors.join('\n'),
    );
    assert.deepEqual(d.result.refusals, []);
  },
  'rejected-missing-ref'(d) {
    const errors = d.result.agentErrors ?? [];
    assert.equal(d.result.tasks.length, 0);
    assert.ok(
      errors.some((e) => /category=psconfig_ref_validation_error/.test(e) && /nowhere/.test(e)),
      errors.join('\n'),
    );
    assert.deepEqual(d.result.refusals, []);
  },
  'task-verdicts'(d) {
    const v = liveVerdicts(d);
    assert.deepEqual(v.created, ['PT3S'], JSON.stringify(d.result.tasks.map((t) => t.spec)));
    assert.equal(v.skipped, 1, (d.result.agentErrors ?? []).join('\n'));
    // api-server tasks.py 459-499: pick_tool(tools, pick_from=task['tools']) finds no "iperf" -> 422.
    const refusals = (d.result.agentErrors ?? []).filter((e) => REFUSED.test(e));
    assert.equal(refusals.length, 1, refusals.join('\n'));
    assert.match(refusals[0], /422.*None of the participants could run this test/);
  },
};

/**
 * A refusal pScheduler made because the machine was too loaded to answer in time, not because of the task: a tool's
 * can-run that did not finish in its time (database/tool.sql runs it with a time limit: "Failed can-run; see system
 * logs."), or a participants program that took too long. Such a run says nothing about the verdicts.
 */
function overloaded(d: ScenarioData): string | undefined {
  const hit = (d.result.agentErrors ?? []).find((e) =>
    /Failed can-run; see system logs|Process took too long to run/.test(e),
  );
  return hit && `pScheduler was too loaded to judge a task (${hit.slice(0, 160)}…): verdicts not compared`;
}

export function verdictChecks(name: string, get: () => ScenarioData): void {
  const facts = liveFacts[name];
  if (!facts) throw new Error(`no verdict checks for scenario ${name}`);
  test("pSConfig's agent and pScheduler: the verdicts the scenario is about", (t) => {
    const why = overloaded(get());
    if (why) return t.skip(why);
    facts(get());
  });
  test('model vs agent: the same verdicts (template rejected; tasks created, skipped, refused)', async (t) => {
    const why = overloaded(get());
    if (why) return t.skip(why);
    const live = liveVerdicts(get());
    const model = modelVerdicts(await scenarioExpansion(name));
    console.log(`# ${name}: live ${JSON.stringify(live)} model ${JSON.stringify(model)}`);
    // A rejected template: the verdict and "nothing created" (what the combinations of a rejected template say
    // otherwise is the model's own business); else every count.
    const pick = (v: Verdicts): Partial<Verdicts> =>
      live.rejected
        ? { rejected: v.rejected, created: v.created }
        : { rejected: v.rejected, created: v.created, skipped: v.skipped, refused: v.refused };
    assert.deepEqual(pick(model), pick(live));
  });
}
