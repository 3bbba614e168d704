// Small-template helpers for the expansion tests.
import { expandTemplate, ExpandOptions, ExpansionResult } from '../../../server/src/template/expand';
import { createJqRunner } from '../../../server/src/template/jq';

export const jq = createJqRunner({ jqPath: process.env.JQ_PATH || '/usr/bin/jq' });

type Obj = Record<string, unknown>;

/** A template with the given addresses and one task per group; the test uses address[0]/address[1] as given. */
export function template(parts: { addresses: Obj; groups: Obj; tasks?: Obj; tests?: Obj; [k: string]: unknown }): Obj {
  const tasks =
    parts.tasks ?? Object.fromEntries(Object.keys(parts.groups).map((g) => [`t-${g}`, { group: g, test: 'pair' }]));
  return {
    tests: {
      pair: { type: 'throughput', spec: { source: '{% address[0] %}', dest: '{% address[1] %}' } },
      one: { type: 'rtt', spec: { dest: '{% address[0] %}' } },
    },
    ...parts,
    tasks,
  };
}

export function expand(t: unknown, options: Partial<ExpandOptions> = {}): Promise<ExpansionResult> {
  return expandTemplate(t, { jq, ...options });
}

/**
 * `a->b` strings of the combinations of one task (expansion errors included, marked with `!`). pScheduler's
 * refusals are not marked: these tests pin pSConfig's expansion, on placeholder specs (test type `x`, address `a`)
 * pScheduler would refuse; the refusals have their own tests (preview-refusals.test.ts).
 */
export function pairs(r: ExpansionResult, task?: string): string[] {
  return r.combinations
    .filter((c) => !task || c.task === task)
    .map((c) => `${c.error !== undefined && !c.refused ? '!' : ''}${c.addressValues.join('->')}`);
}

export function addrs(...names: string[]): Obj {
  return Object.fromEntries(names.map((n) => [n, { address: n }]));
}

export function sel(...names: string[]): Obj[] {
  return names.map((name) => ({ name }));
}
