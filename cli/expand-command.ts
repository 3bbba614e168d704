// psconfig-tools expand INPUT [--agent ADDRESS]... [--format json|pscheduler] [--include-refused] [--jq PATH] [--jq-memory-mb N] [--allow-remote-includes]
// Prints the pScheduler tasks the agents would create, in pSConfig order. Exit 0: every combination expanded and
// pScheduler would accept every task; 1: some combination or task failed, or pScheduler would refuse some task;
// 2: the file cannot be read or parsed, or bad usage.
import { expandText } from '../server/src/template/expand/from-text';

import { DEFAULT_INPUT_LIMITS, readTemplateArg, unexpandedExit, type InputLimits } from './inputs';
import {
  commandArgs,
  expandingOptions,
  flag,
  formatOption,
  jqMemoryOption,
  listOption,
  onePositional,
  type CommandOptions,
  type JqArgs,
} from './options';
import { identicalText } from '../common/combination-text';

const USAGE = `usage: psconfig-tools expand INPUT [--agent ADDRESS]... [--format json|pscheduler] [--include-refused] [--jq PATH] [--jq-memory-mb N] [--allow-remote-includes] [--timeout SECONDS]

  INPUT                    a template file, - for standard input, or an http(s) URL

  --agent ADDRESS          only tasks this agent schedules (repeatable; case-insensitive exact match, as the agent's
                           match-addresses); default: every agent. One that matches no agent is reported with the
                           agents there are (exit 2 when none matches)
  --format json            (default) one element per combination:
                           {"task", "addresses", "agent", "flip", "pscheduler"} or {"task", "addresses", "error"};
                           a task pScheduler would refuse also has "error" (the reason) and "refused" (each part);
                           a task identical to an earlier one of its agent has "identicalTo" {"task", "addresses",
                           "addressValues"} and "notCreated" (why): pSConfig's agent creates it once
  --format pscheduler      the bare array of the task JSON the agent would post and pScheduler accept, like
                           \`psconfig pscheduler-tasks\`; failed combinations, refused tasks and identical tasks
                           (posted once) are reported on stderr
  --include-refused        with --format pscheduler: also print the tasks pScheduler would refuse (a host's
                           \`psconfig pscheduler-tasks\` lists them too: the agent logs each task before posting it)
  --jq PATH                jq binary (default: JQ_PATH, node-jq's binary, then jq on PATH; a bare name: PATH)
  --jq-memory-mb N         memory limit of each jq run (default 256; 0: none)
  --allow-remote-includes  fetch http(s) URLs listed in \`includes\`
  --timeout SECONDS        for a URL INPUT and remote includes (default 10)
Notes (where pSConfig 5.x would behave differently) and errors go to stderr.
`;

interface Args extends JqArgs {
  file?: string;
  agents: string[];
  format: 'json' | 'pscheduler';
  includeRefused: boolean;
  limits: InputLimits;
}

const OPTIONS: CommandOptions<Args> = {
  options: {
    '--agent': listOption((a) => a.agents, '--agent needs an address'),
    '--format': formatOption(['json', 'pscheduler'], (a, f) => (a.format = f)),
    '--jq-memory-mb': jqMemoryOption(),
    '--include-refused': flag((a) => (a.includeRefused = true)),
    ...expandingOptions(),
  },
  positional: onePositional((first, second) => `only one INPUT can be expanded (got ${first} and ${second})`),
  done: (a) => {
    if (a.includeRefused && a.format !== 'pscheduler') return '--include-refused goes with --format pscheduler';
    if (!a.file) return 'missing INPUT';
  },
};

export async function runExpandCommand(argv: string[]): Promise<number> {
  const initial: Args = {
    agents: [],
    format: 'json',
    includeRefused: false,
    allowRemote: false,
    limits: { ...DEFAULT_INPUT_LIMITS },
  };
  const args = commandArgs('expand', USAGE, argv, initial, OPTIONS);
  if (typeof args === 'number') return args;
  const read = await readTemplateArg('expand', args.file as string, args.limits, args.allowRemote);
  if (!read) return 2;
  const { input, uri, includes } = read;
  const text = input.text;
  const result = await expandText({
    uri,
    version: null,
    text,
    includes,
    agentAddresses: args.agents,
    jq: { path: args.jq, memoryLimitMb: args.jqMemoryMb },
  });
  const unexpanded = unexpandedExit(args.file as string, result);
  if (unexpanded !== undefined) {
    // Read, but pSConfig's agent creates nothing from it: an empty list, as for a template whose every combination
    // fails.
    if (unexpanded === 1) process.stdout.write('[]\n');
    return unexpanded;
  }
  if (args.agents.length > 0) {
    // An --agent that schedules nothing is usually a typo: say so and list the agents there are.
    const all = await expandText({
      uri,
      version: null,
      text,
      includes,
      limit: 0,
      jq: { path: args.jq, memoryLimitMb: args.jqMemoryMb },
    });
    const known = new Set(all.agents.map((a) => a.toLowerCase()));
    const unknown = args.agents.filter((a) => !known.has(a.trim().toLowerCase()));
    if (unknown.length > 0) {
      const shown = all.agents.slice(0, 20).join(', ');
      const more = all.agents.length > 20 ? ` and ${all.agents.length - 20} more` : '';
      process.stderr.write(
        `psconfig-tools expand: --agent ${unknown.join(', ')} matches none of the agents that schedule tasks in ${args.file}. ` +
          (all.agents.length
            ? `Agents (${all.agents.length}): ${shown}${more}.\n`
            : 'No address of it schedules any task.\n'),
      );
      if (unknown.length === args.agents.length) {
        process.stdout.write('[]\n');
        return 2;
      }
    }
  }
  for (const n of result.notes) process.stderr.write(`note: ${n.task ? `task ${n.task}: ` : ''}${n.message}\n`);
  let failed = false;
  for (const t of result.tasks) {
    if (t.error) {
      failed = true;
      process.stderr.write(`error: task ${t.task}: ${t.error}\n`);
    }
  }
  const out: unknown[] = [];
  for (const c of result.combinations) {
    if (c.refused) {
      // Built, but pScheduler would refuse it: the agent posts it and no task is created.
      failed = true;
      if (args.format === 'json') {
        const { task, addresses, agent, flip, pscheduler, error, refused } = c;
        out.push({ task, addresses, agent, flip: flip ?? false, pscheduler, error, refused });
      } else {
        process.stderr.write(`refused: task=${c.task},addresses=${c.addressValues.join('->')}: ${c.error}\n`);
        if (args.includeRefused) out.push(c.pscheduler);
      }
    } else if (c.error) {
      failed = true;
      if (args.format === 'json') out.push({ task: c.task, addresses: c.addresses, error: c.error });
      else process.stderr.write(`error: ${c.error}\n`);
    } else if (c.identicalTo) {
      // Not a failure: the agent creates the earlier identical task and skips this one (identical-tasks.ts).
      if (args.format === 'json') {
        const { task, addresses, agent, flip, pscheduler, identicalTo } = c;
        out.push({
          task,
          addresses,
          agent,
          flip: flip ?? false,
          pscheduler,
          identicalTo,
          notCreated: identicalText(identicalTo),
        });
      } else
        process.stderr.write(
          `identical: task=${c.task},addresses=${c.addressValues.join('->')}: ${identicalText(c.identicalTo)}\n`,
        );
    } else if (args.format === 'json') {
      out.push({
        task: c.task,
        addresses: c.addresses,
        agent: c.agent,
        flip: c.flip ?? false,
        pscheduler: c.pscheduler,
      });
    } else {
      out.push(c.pscheduler);
    }
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  return failed ? 1 : 0;
}
