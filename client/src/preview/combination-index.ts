// Combinations of one ExpandTasksResult grouped by scheduling agent and task, with stable keys. Built in one
// O(n) pass without per-combination allocations beyond the number lists; keys are made per list, only for the
// lists the tree shows, so a 39,800-combination result costs a few milliseconds to index.
import type { ExpandedCombination } from '../../../common/protocol';

export interface AgentBucket {
  /** Combination numbers per task, task order = first seen = pSConfig order. */
  tasks: Map<string, number[]>;
  ok: number;
  /** Combinations that yield no task, pScheduler's refusals included. */
  failed: number;
  /** Of `failed`, the combinations pScheduler would refuse. */
  refused: number;
  /** Combinations identical to an earlier one of this agent (`identicalTo`): not created, not failed either. */
  identical: number;
}

/**
 * Identity of a combination that survives re-expansion: task, address-object names, and an occurrence number
 * for the rare duplicates (a selector listed twice). Positions are not used: an edit elsewhere shifts them.
 */
export function combinationKey(c: ExpandedCombination, occurrence: number): string {
  return JSON.stringify([c.task, c.addresses, occurrence]);
}

export class CombinationIndex {
  /** Agents that schedule at least one combination: the engine's order, then any others first seen. */
  readonly agents: string[] = [];
  /** By scheduling agent ('' for failures without one). */
  readonly byAgent = new Map<string, AgentBucket>();
  /** Keys by combination number, filled per list when that list is first needed. */
  private readonly keys: (string | undefined)[] = [];

  constructor(
    private readonly combinations: ExpandedCombination[],
    engineAgents: string[],
  ) {
    for (const a of engineAgents) this.bucket(a);
    for (let n = 0; n < combinations.length; n++) {
      const c = combinations[n];
      const bucket = this.bucket(c.agent ?? '');
      let list = bucket.tasks.get(c.task);
      if (!list) bucket.tasks.set(c.task, (list = []));
      list.push(n);
      if (c.error !== undefined) bucket.failed++;
      else if (c.identicalTo !== undefined) bucket.identical++;
      else bucket.ok++;
      if (c.refused !== undefined) bucket.refused++;
    }
    // Agents the engine lists without a combination here (for example cut by `limit`) are left out.
    for (const [agent, b] of this.byAgent) if (b.tasks.size > 0) this.agents.push(agent);
  }

  /** Combination numbers of one agent's combinations of one task, in pSConfig order. */
  list(agent: string, task: string): number[] {
    return this.byAgent.get(agent)?.tasks.get(task) ?? [];
  }

  keyOf(n: number): string | undefined {
    const c = this.combinations[n];
    if (!c) return undefined;
    if (this.keys[n] === undefined) this.fillKeys(this.list(c.agent ?? '', c.task));
    return this.keys[n];
  }

  /** The number of the combination with this key: a linear scan, cheaper than a key map for a rare lookup. */
  indexOfKey(key: string): number | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(key);
    } catch {
      return undefined;
    }
    if (!Array.isArray(parsed) || parsed.length !== 3 || !Array.isArray(parsed[1])) return undefined;
    const [task, addresses, occurrence] = parsed as [unknown, unknown[], unknown];
    let seen = 0;
    const cs = this.combinations;
    for (let n = 0; n < cs.length; n++) {
      const c = cs[n];
      if (
        c.task !== task ||
        c.addresses.length !== addresses.length ||
        !c.addresses.every((a, i) => a === addresses[i])
      )
        continue;
      if (seen++ === occurrence) return n;
    }
    return undefined;
  }

  /**
   * Keys of one list. Duplicates (same task and address names) always have the same scheduler, so they sit in
   * the same list and the occurrence count can be local to it.
   */
  fillKeys(numbers: number[]): void {
    if (numbers.length === 0 || this.keys[numbers[0]] !== undefined) return;
    const seen = new Map<string, number>();
    for (const n of numbers) {
      const c = this.combinations[n];
      const base = c.addresses.join('\u0000');
      const occurrence = seen.get(base) ?? 0;
      seen.set(base, occurrence + 1);
      this.keys[n] = combinationKey(c, occurrence);
    }
  }

  private bucket(agent: string): AgentBucket {
    let b = this.byAgent.get(agent);
    if (!b) {
      b = { tasks: new Map(), ok: 0, failed: 0, refused: 0, identical: 0 };
      this.byAgent.set(agent, b);
    }
    return b;
  }
}
