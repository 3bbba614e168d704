// pScheduler's own checks of a task, by its own plug-in programs installed in the prefix (build-pscheduler.sh), run
// the way a pScheduler host runs them when pSConfig's agent POSTs the task; no instance or database is needed.
//
// What a POST /tasks goes through (pscheduler-server/pscheduler-server/api-server/pschedulerapiserver/tasks.py, the
// 1e8b1924 of vendor/; pscheduler-server/database/*.sql):
//   1. the test's spec-is-valid, the spec's JSON on stdin (tasks.py 239-253: plugin_invoke("test", type,
//      "spec-is-valid", stdin=json_dump(task['test']['spec']))): exit status not 0 -> 500 "Unable to validate test
//      spec", `valid` false -> 400 "Invalid test specification";
//   2. each archive's data-is-valid, the archive's `data` on stdin (tasks.py 270-290): the same two ways to refuse;
//   3. the tools (tasks.py 383-499): every participant's GET /tools?test=<the task's test JSON> answers, per tool
//      that enumerates the test type (database/tool.sql api_tools_for_test: preference descending, then name), the
//      tool's can-run with the test's JSON on stdin and 5 s (tool.sql tool_can_run_test; a failing program or bad
//      JSON counts as "can-run": false); pick_tool (tasks.py 38-108) takes the first of the task's `tools` that every
//      participant can run, else the common tool of lowest score; none -> 422 "None of the participants could run
//      this test". The participants here are one installation, so a tool every participant offers is a tool that
//      can run it here;
//   4. each participant's contexts, each context's `data` on stdin to its data-is-valid (database/context.sql
//      context_validate, 200-216, when the task is stored): a failing program or `valid` false refuses the task.
// Not judged here: the task's JSON schema (python-pscheduler TaskSpecification), limits (each host has its own),
// the lead-bind address and the participants' reachability.
//
// The spec is what pSConfig's agent POSTs: `schema` set to 1 when the spec has none (psconfig
// psconfig/client/pscheduler/task.py post_task, 390).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PSchedulerTask } from '../../common/protocol';
import { pschedulerEnv, prefixDir } from './harness/prefix';

export type PluginKind = 'test' | 'tool' | 'archiver' | 'context';

/** pScheduler's verdict on one task: accepted when `problems` is empty. */
export interface PluginVerdict {
  accepted: boolean;
  /** Each refusal, in pScheduler's words (`test throughput: Invalid test specification: ...`). */
  problems: string[];
  /** The tool pick_tool would choose (accepted tasks). */
  tool?: string;
}

interface ProgramResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs installed plug-in programs, at most `concurrency` at once, each answer cached by its input. */
export class PluginChecker {
  private readonly classes: string;
  private readonly cache = new Map<string, Promise<ProgramResult>>();
  private readonly queue: (() => void)[] = [];
  private running = 0;
  private toolList: Promise<{ name: string; tests: string[]; preference: number }[]> | undefined;
  /** Plug-in programs run (cache misses). */
  runs = 0;

  constructor(private readonly options: { concurrency?: number; timeoutMs?: number } = {}) {
    this.classes = join(prefixDir(), 'classes');
    if (!existsSync(this.classes)) throw new Error(`${this.classes}: not built (build-pscheduler.sh)`);
  }

  installed(kind: PluginKind): string[] {
    return readdirSync(join(this.classes, kind)).sort();
  }

  /** One program's answer; a program that outlives the deadline is killed and the check fails (not a verdict). */
  run(kind: PluginKind, name: string, method: string, stdin: string): Promise<ProgramResult> {
    const key = `${kind}\0${name}\0${method}\0${stdin}`;
    let p = this.cache.get(key);
    if (!p) {
      p = this.slot(() => this.spawnProgram(join(this.classes, kind, name, method), stdin));
      this.cache.set(key, p);
    }
    return p;
  }

  private async slot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= (this.options.concurrency ?? 2)) await new Promise<void>((r) => this.queue.push(r));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.queue.shift()?.();
    }
  }

  private spawnProgram(path: string, stdin: string): Promise<ProgramResult> {
    this.runs++;
    const timeoutMs = this.options.timeoutMs ?? 60_000;
    return new Promise((resolve, reject) => {
      const child = spawn(path, [], { env: pschedulerEnv(), cwd: '/', stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${path}: no answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on('close', (status) => {
        clearTimeout(timer);
        resolve({ status, stdout, stderr });
      });
      child.stdin.on('error', () => {}); // a program that exits without reading its input
      child.stdin.end(stdin);
    });
  }

  /** Each installed tool's enumerate: the tests it runs and its preference (database/tool.sql tool_boot). */
  private tools(): Promise<{ name: string; tests: string[]; preference: number }[]> {
    this.toolList ??= Promise.all(
      this.installed('tool').map(async (name) => {
        const r = await this.run('tool', name, 'enumerate', '');
        const e = JSON.parse(r.stdout) as { tests?: string[]; preference?: number };
        return { name, tests: e.tests ?? [], preference: e.preference ?? 0 };
      }),
    );
    return this.toolList;
  }

  /** A plug-in's validity answer (spec-is-valid, data-is-valid): undefined when valid, else the refusal. */
  private async validity(kind: PluginKind, name: string, method: string, input: unknown): Promise<string | undefined> {
    if (!this.installed(kind).includes(name)) return `${kind} ${name}: no such plug-in is installed`;
    const r = await this.run(kind, name, method, JSON.stringify(input ?? null));
    if (r.status !== 0) return `${kind} ${name}: ${method} failed: ${(r.stderr || r.stdout).trim().split('\n').pop()}`;
    let answer: { valid?: boolean; error?: string };
    try {
      answer = JSON.parse(r.stdout) as typeof answer;
    } catch {
      return `${kind} ${name}: ${method} answered no JSON: ${r.stdout.slice(0, 200)}`;
    }
    return answer.valid ? undefined : `${kind} ${name}: ${answer.error ?? 'Unspecified error'}`;
  }

  /** The tools that can run `test`, in pScheduler's order, with the reasons of those that cannot. */
  async canRun(test: { type: string; spec: unknown }): Promise<{ can: string[]; declined: string[] }> {
    const tools = (await this.tools())
      .filter((t) => t.tests.includes(test.type))
      .sort((a, b) => b.preference - a.preference || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const text = JSON.stringify(test);
    const answers = await Promise.all(
      tools.map(async (t) => {
        const r = await this.run('tool', t.name, 'can-run', text);
        let a: { 'can-run'?: boolean; reasons?: string[] } = {};
        try {
          a = r.status === 0 ? (JSON.parse(r.stdout) as typeof a) : { reasons: ['Failed can-run; see system logs.'] };
        } catch {
          a = { reasons: ['Failed can-run; see system logs.'] };
        }
        return { name: t.name, can: a['can-run'] === true, reasons: a.reasons ?? [] };
      }),
    );
    return {
      can: answers.filter((a) => a.can).map((a) => a.name),
      declined: answers.filter((a) => !a.can).map((a) => `${a.name} (${a.reasons.join('; ') || 'no reason'})`),
    };
  }

  async checkTask(task: PSchedulerTask): Promise<PluginVerdict> {
    const problems: string[] = [];
    const spec = { ...(task.test.spec ?? {}) };
    if (spec.schema === undefined) spec.schema = 1;
    const test = { type: task.test.type, spec };
    const specProblem = await this.validity('test', test.type, 'spec-is-valid', spec);
    if (specProblem) problems.push(`Invalid test specification: ${specProblem}`);
    for (const a of task.archives ?? [])
      if (typeof a.archiver !== 'string') problems.push('archive without an archiver');
      else {
        const p = await this.validity('archiver', a.archiver, 'data-is-valid', a.data);
        if (p) problems.push(`Invalid archiver data: ${p}`);
      }
    const contexts = (task.contexts as { contexts?: unknown } | undefined)?.contexts;
    if (Array.isArray(contexts))
      for (const [i, list] of contexts.entries())
        for (const c of Array.isArray(list) ? (list as { context?: string; data?: unknown }[]) : []) {
          const p =
            typeof c.context === 'string'
              ? await this.validity('context', c.context, 'data-is-valid', c.data ?? {})
              : 'a context without a name';
          if (p) problems.push(`Invalid context of participant ${i + 1}: ${p}`);
        }
    let tool: string | undefined;
    if (!specProblem && this.installed('test').includes(test.type)) {
      const { can, declined } = await this.canRun(test);
      // pick_tool: the first of the task's tools that can run it, else the most preferred that can.
      tool = Array.isArray(task.tools) ? task.tools.find((t) => can.includes(t)) : can[0];
      if (tool === undefined)
        problems.push(
          `None of the participants could run this test: offered ${can.join(', ') || 'nothing'}` +
            `${Array.isArray(task.tools) ? ` (the task allows only ${task.tools.join(', ')})` : ''}; declined ${declined.join(', ') || 'nothing'}`,
        );
    }
    return { accepted: problems.length === 0, problems, ...(tool ? { tool } : {}) };
  }
}
