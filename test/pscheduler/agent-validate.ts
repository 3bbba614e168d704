// The project's "does the agent take this template at all" (server/src/template/expand/agent-acceptance.ts) against
// pSConfig's own code: agent-validate.py runs the Config.validate() and Config.validate_refs() the agent runs, from
// the vendored pSConfig the harness builds, on the example templates, the scenarios, the migration files and
// seeded mutations of the examples (a value of another type, a key removed, a key added).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { examplesDir, repoRoot } from '../fixtures';
import { agentRejection, schemaRejection } from '../../server/src/template/expand/agent-acceptance';
import { stripHashKeys, type Json } from '../../server/src/template/expand/template-view';
import { harnessDir, pschedulerEnv } from './harness/prefix';
import { prng } from '../seeded-random';
import { isObject } from '../../common/json';

export type AgentVerdict = 'accepted' | 'schema' | 'refs' | 'raises';

export interface TemplateCase {
  name: string;
  template: unknown;
}

/** The project's verdict, in agent-validate.py's terms. */
export function projectVerdict(template: unknown): AgentVerdict {
  const raw = stripHashKeys(template);
  if (!isObject(raw) || schemaRejection(raw)) return 'schema';
  const r = agentRejection(raw, [], false);
  if (!r) return 'accepted';
  return /fails while checking/.test(r) ? 'raises' : 'refs';
}

/** pSConfig's own verdicts, one per case, in order (bounded: the whole batch within `timeoutMs`). */
export function psconfigVerdicts(
  cases: TemplateCase[],
  timeoutMs = 120_000,
): Promise<{ name: string; verdict: AgentVerdict; message: string }[]> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('/usr/bin/python3', [join(harnessDir, 'agent-validate.py')], {
      env: pschedulerEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`agent-validate.py: no answer within ${timeoutMs / 1000} s\n${err.slice(-2000)}`));
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`agent-validate.py exit ${code}\n${err.slice(-4000)}`));
      resolvePromise(
        out
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as never),
      );
    });
    for (const c of cases) child.stdin.write(`${JSON.stringify(c)}\n`);
    child.stdin.end();
  });
}

/** Every template file the repository keeps (examples, scenarios, migration files), parsed. */
export function repositoryTemplates(): TemplateCase[] {
  const out: TemplateCase[] = [];
  const add = (dir: string, prefix: string): void => {
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((f) => f.endsWith('.json'));
    } catch {
      return;
    }
    for (const f of names.sort()) {
      try {
        const template = JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown;
        if (isObject(template as Json) && ('tasks' in (template as object) || 'addresses' in (template as object)))
          out.push({ name: `${prefix}${f}`, template });
      } catch {
        // not JSON: not a template case
      }
    }
  };
  add(examplesDir, 'examples/');
  add(join(harnessDir, 'scenarios'), 'scenarios/');
  add(join(repoRoot(), 'test', 'fixtures', 'migration'), 'migration/');
  return out;
}

const VALUES: Json[] = [
  false,
  true,
  0,
  -1,
  2.5,
  '',
  'x y',
  'PT1M',
  [],
  {},
  null,
  'a.example.org',
  '::1',
  42,
  ['x'],
  {
    name: 'nope',
  },
];

/** `count` mutations of the given templates: 1 or 2 edits each, on a random path (seed fixed). */
export function mutations(bases: TemplateCase[], count: number, seed = 7): TemplateCase[] {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const out: TemplateCase[] = [];
  for (let i = 0; i < count; i++) {
    const base = pick(bases);
    const t = JSON.parse(JSON.stringify(base.template)) as Json;
    const paths: { parent: Json; key: string | number }[] = [];
    const walk = (v: Json): void => {
      if (Array.isArray(v)) v.forEach((x, k) => (paths.push({ parent: v, key: k }), walk(x)));
      else if (isObject(v))
        for (const k of Object.keys(v)) {
          paths.push({ parent: v, key: k });
          walk(v[k]);
        }
    };
    walk(t);
    const edits = rnd() < 0.67 ? 1 : 2;
    for (let e = 0; e < edits && paths.length; e++) {
      const { parent, key } = pick(paths);
      const r = rnd();
      if (Array.isArray(parent)) parent[key as number] = pick(VALUES);
      else if (isObject(parent)) {
        if (r < 0.6) parent[key as string] = pick(VALUES);
        else if (r < 0.8) delete parent[key as string];
        else parent[`extra-${i}`] = 1;
      }
    }
    out.push({ name: `mutation ${i} of ${base.name}`, template: t });
  }
  return out;
}
