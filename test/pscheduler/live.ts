// `npm run test:pscheduler`: a real pScheduler and pSConfig's own agent (docs/development.md), the scenarios
// of scenarios.ts run live, what pScheduler did asserted, then the project's schedule model compared with it.
// The CI subset by default; PSCHEDULER_LIVE_FULL=1 runs every scenario; PSCHEDULER_LIVE_OBSERVE=SECONDS changes the
// observation (default 600); PSCHEDULER_LIVE_RECORD=1 rewrites test/fixtures/pscheduler-live/ from this run.
// After the scenarios, pScheduler's own plug-in programs judge every task the agent would post of the scenario
// templates (with PSCHEDULER_LIVE_FULL=1 also of the official examples and test/fixtures/migration/, at most
// PSCHEDULER_PLUGIN_PER_GROUP tasks per template task and project verdict, default 2), against the project's verdict.
// Not part of `npm test` (the file is not *.test.ts): it needs root, Debian's packages and about 15 minutes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../fixtures';
import { viewScenario, type ScenarioView } from './analysis';
import { harnessDir } from './harness/prefix';
import { runLive, type LiveRunResult, type ScenarioResult } from './live-run';
import { writeFixtures } from './record';
import { SCENARIOS } from './scenarios';
import { checkScenario } from './live-checks';
import { comparisonMarkdown } from './report';
import { PluginChecker } from './plugin-checks';
import { mutations, projectVerdict, psconfigVerdicts, repositoryTemplates } from './agent-validate';
import { migrationDir } from '../fixtures';
import { translateMeshConfig, translationText } from '../../server/src/template/meshconfig/translate';
import { fixText } from '../../server/src/template/fixes/fix-text';
import {
  comparedTemplates,
  compareTemplate,
  compareTemplateText,
  comparisonLine,
  disagreementText,
  type TemplateComparison,
} from './plugin-compare';

const full = process.env.PSCHEDULER_LIVE_FULL === '1';
const observeSeconds = Number(process.env.PSCHEDULER_LIVE_OBSERVE ?? 600);
const chosen = SCENARIOS.filter((s) => full || s.ci);
const resultsDir = join(repoRoot(), 'test-results', 'pscheduler-live');

let live: LiveRunResult | undefined;
let failure: unknown;
const views = new Map<string, { result: ScenarioResult; view: ScenarioView }>();

before(
  async () => {
    try {
      // PSCHEDULER_LIVE_RESULTS=FILE: judge a run saved before (test-results/pscheduler-live/results.json) instead
      // of running one, e.g. after a model change.
      const saved = process.env.PSCHEDULER_LIVE_RESULTS;
      live = saved
        ? (JSON.parse(readFileSync(saved, 'utf8')) as LiveRunResult)
        : await runLive(chosen, { observeSeconds, log: (l) => console.log(`# ${new Date().toISOString()} ${l}`) });
    } catch (e) {
      failure = e;
      return;
    }
    mkdirSync(resultsDir, { recursive: true });
    if (!process.env.PSCHEDULER_LIVE_RESULTS)
      writeFileSync(join(resultsDir, 'results.json'), JSON.stringify(live, null, 1));
    for (const r of live.scenarios)
      views.set(r.scenario, {
        result: r,
        view: viewScenario(r.tasks, {
          horizonSeconds: r.horizonSeconds,
          ttlSeconds: r.agent.ttlSeconds,
          collectedAt: r.collectedAt,
        }),
      });
    writeFileSync(
      join(resultsDir, 'views.json'),
      JSON.stringify(Object.fromEntries([...views].map(([k, v]) => [k, v.view])), null, 1),
    );
    if (process.env.PSCHEDULER_LIVE_RECORD === '1') {
      const version = (f: string): string => readFileSync(join(harnessDir, 'vendor', f), 'utf8').trim();
      for (const f of writeFixtures(live, {
        pscheduler: version('pscheduler-src.COMMIT'),
        psconfig: version('psconfig-src.COMMIT'),
      }))
        console.log(`# recorded ${f}`);
    }
  },
  { timeout: (observeSeconds + 30 * 60) * 1000 },
);

after(async () => {
  if (!live) return;
  for (const p of live.posts)
    console.log(
      `# POST ${p.phase} ${p.seconds.toFixed(2)} s at load ${p.load1.toFixed(2)}${p.error ? ` (${p.error})` : ''}`,
    );
  const md = await comparisonMarkdown(live);
  writeFileSync(join(resultsDir, 'comparison.md'), `${md}\n`);
  for (const line of md.split('\n')) console.log(`# ${line}`);
});

test('the live run itself: harness prepared, instances and agents started, everything read back', () => {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- the error before() caught, rethrown as it was
  if (failure) throw failure;
  assert.ok(live);
  const have = new Set(live.scenarios.map((r) => r.scenario));
  assert.deepEqual(
    chosen.map((s) => s.name).filter((n) => !have.has(n)),
    [],
  );
});

for (const scenario of chosen) {
  describe(`${scenario.name}: ${scenario.shows}`, () => {
    checkScenario(scenario.name, () => {
      const v = views.get(scenario.name);
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the error before() caught, rethrown as it was
      if (!v) throw failure ?? new Error(`${scenario.name}: no live result`);
      return { ...v, live: live as LiveRunResult };
    });
  });
}

describe("pScheduler's own checks (spec-is-valid, data-is-valid, can-run) of the expanded tasks vs the project's verdict", () => {
  const perGroup = full ? Number(process.env.PSCHEDULER_PLUGIN_PER_GROUP ?? 2) : Infinity;
  const compared: TemplateComparison[] = [];
  let checker: PluginChecker | undefined;
  after(() => {
    if (!compared.length) return;
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(join(resultsDir, 'plugin-checks.json'), JSON.stringify(compared, null, 1));
    const runs = compared.reduce((n, c) => n + c.checked.length, 0);
    const off = compared.reduce((n, c) => n + c.disagreements.length, 0);
    console.log(
      `# pScheduler's own checks: ${compared.length} files, ${runs} tasks checked, ${off} disagreements, ${checker?.runs ?? 0} plug-in runs`,
    );
  });
  for (const file of comparedTemplates(full))
    test(file.slice(repoRoot().length + 1), { timeout: 30 * 60_000 }, async () => {
      checker ??= new PluginChecker();
      const c = await compareTemplate(checker, file, perGroup);
      compared.push(c);
      console.log(`# ${comparisonLine(c)}`);
      assert.deepEqual(c.disagreements.map(disagreementText), []);
    });
});

describe("pSConfig's own template checks (Config.validate, validate_refs) vs whether the project says the agent takes the template", () => {
  test(
    'the repository’s templates and 600 seeded mutations of the examples: the same verdict',
    { timeout: 10 * 60_000 },
    async () => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the error before() caught, rethrown as it was
      if (failure) throw failure; // the harness (and its pSConfig) was not built
      const repo = repositoryTemplates();
      const cases = [
        ...repo,
        ...mutations(
          repo.filter((c) => c.name.startsWith('examples/')),
          600,
        ),
      ];
      const theirs = await psconfigVerdicts(cases);
      assert.equal(theirs.length, cases.length);
      const off: string[] = [];
      const tally: Record<string, number> = {};
      cases.forEach((c, i) => {
        const ours = projectVerdict(c.template);
        tally[theirs[i].verdict] = (tally[theirs[i].verdict] ?? 0) + 1;
        if (ours !== theirs[i].verdict)
          off.push(`${c.name}: project ${ours}, pSConfig ${theirs[i].verdict} (${theirs[i].message.slice(0, 200)})`);
      });
      console.log(
        `# pSConfig's template checks: ${cases.length} templates, verdicts ${JSON.stringify(tally)}, ${off.length} disagreements`,
      );
      assert.deepEqual(off, []);
      // the comparison covers each kind of verdict
      for (const v of ['accepted', 'schema', 'refs', 'raises']) assert.ok((tally[v] ?? 0) > 0, `no ${v} case`);
    },
  );
});

describe("the real migration files (test/fixtures/migration/), translated or fixed as a user would: pScheduler's own checks", () => {
  let checker: PluginChecker | undefined;
  // What `psconfig-tools translate` then `fix` (MeshConfig) or `fix` (perfSONAR 4 template) make of each file; every
  // task the agent would post goes to pScheduler's programs (two per template task and verdict).
  const migrated = (file: string, text: string): string =>
    file.endsWith('.meshconfig.json')
      ? fixText(translationText(translateMeshConfig(JSON.parse(text), { now: new Date('2026-01-02T00:00:00Z') }))).text
      : fixText(text).text;
  for (const file of readdirSync(migrationDir)
    .filter((f) => f.endsWith('.json'))
    .sort())
    test(file, { timeout: 20 * 60_000 }, async () => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the error before() caught, rethrown as it was
      if (failure) throw failure; // the harness (and its plug-ins) was not built
      checker ??= new PluginChecker();
      const c = await compareTemplateText(
        checker,
        `test/fixtures/migration/${file} (migrated)`,
        migrated(file, readFileSync(join(migrationDir, file), 'utf8')),
        2,
      );
      console.log(`# ${comparisonLine(c)}`);
      assert.deepEqual(c.disagreements.map(disagreementText), []);
      // every task checked is one pScheduler accepts, or the project says why the agent posts none
      if (c.notCompared) assert.match(c.notCompared, /agent rejects it/);
      else
        assert.deepEqual(
          c.checked.filter((t) => !t.pscheduler.accepted).map((t) => `${t.task}: ${JSON.stringify(t.pscheduler)}`),
          [],
        );
    });
});
