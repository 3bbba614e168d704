// Compares our verdict on a test (its spec, then whether a tool can run it) with pScheduler's own programs: the
// test's spec-is-valid and every tool's enumerate and can-run, through the oracle's --with-tools (development only;
// never run by `npm test`). Cases are random, reproducible per --seed: a test type, a valid spec of one of its
// schema versions (from our data files), options set to values around the tools' limits (each tool's can-run:
// durations around simplestreamer's half timeout, sizes around s3-benchmark's 1 TiB, file:// URLs with `parse`,
// `keep-content` and system paths for curl, trace algorithms with IP and host-name destinations, ...) or to other
// valid and invalid values, and sometimes a task's `tools` list. Our side is the task check the preview and
// diagnostics use (server/src/template/pscheduler/task-check.ts, compiled to out/).
//
//   node scripts/build.mjs --tests
//   node scripts/pscheduler-data/tools-agreement.mjs --oracle PATH/TO/pscheduler-oracle [--count 2000] [--seed 1]
//
// Without --oracle (or when it is not there) it says so and exits 0.
import { makeRandom, makeValues, reportRows, runOracle, scriptSetup } from './shared.mjs';

const { opt, oracleDir, load } = scriptSetup('tools-agreement', 'server/src/template/pscheduler/task-check.js');
const count = Number(opt('count', '2000'));
const catalog = load('server/src/template/pscheduler/catalog.js');
const { TaskChecker } = load('server/src/template/pscheduler/task-check.js');
const { rand, pick } = makeRandom(Number(opt('seed', '1')));
const { good, bad, propsOf } = makeValues(catalog);

// Values around the limits the tools' can-run programs check (perfsonar/pscheduler pscheduler-tool-*/*/can-run).
const LIMITS = {
  dawdle: ['PT1S', 'PT10S', 'PT29S', 'PT30S', 'PT30.5S', 'PT31S', 'PT1M', 'PT2M'],
  timeout: ['PT1S', 'PT20S', 'PT1M', 'PT2M', 'PT1H'],
  duration: ['PT5S', 'PT10S', 'PT15S', 'PT30S', 'PT1M', 'PT1H', 'PT2H'],
  'object-size': [1, 1024, 1099511627775, 1099511627776, 2000000000000],
  url: [
    'https://www.example.net/',
    'http://192.0.2.1/x',
    'ftp://ftp.example.net/f',
    'gopher://g.example.net/',
    'file:///home/user/data.txt',
    'file:///opt/data/file',
    'file:///etc/passwd',
    'file:///etc',
    'file:///var/log/syslog',
    'file:///dev/null',
    'file:///proc/self/status',
    'file:///srv/x',
    'file:///run/x',
    'file:///sys/x',
    'file:///media/x',
    'file:///home/user/../../etc/x',
    'file:///home/./user/x',
    'file:///',
    'file://host.example.net/etc/hosts',
    'file:/etc/hosts',
    'FILE:///etc/hosts',
    'file:///etc%2Fpasswd',
    'file:///home/user/etc/x',
    'file:///etcetera/x',
  ],
  parse: ['text', ''],
  'keep-content': [0, 100, null],
  algorithm: ['dublin-traceroute', 'paris-traceroute', 'traceroute'],
  dest: ['ps.example.net', '192.0.2.1', '2001:db8::1', '::ffff:192.0.2.1', 'localhost'],
  'first-ttl': [1, 5, 30, 31, 255],
  hops: [1, 5, 30, 31, 255, 256],
};
// Types whose tools check something beyond their option lists are asked more often.
const FOCUS = ['simplestream', 's3throughput', 'http', 'trace', 'throughput', 'latency', 'latencybg', 'rtt', 'idle'];

const testTypes = catalog.pluginNames('test').filter((t) => catalog.toolsFor(t).length > 0);
const cases = [];
while (cases.length < count) {
  const type = rand() < 0.6 ? pick(FOCUS.filter((t) => testTypes.includes(t))) : pick(testTypes);
  const p = catalog.plugin('test', type);
  const v = pick(catalog.acceptedVersions(p));
  const s = propsOf(p, v) ?? {};
  const props = s.properties ?? {};
  const spec = { ...good(p, s, Math.floor(rand() * 4)) };
  if (rand() < 0.7) spec.schema = v;
  for (const [k, ps] of Object.entries(props)) {
    if (k === 'schema') continue;
    const r = rand();
    if (LIMITS[k] && r < 0.5) spec[k] = pick(LIMITS[k]);
    else if (r < 0.65) spec[k] = good(p, ps, Math.floor(rand() * 4));
    else if (r < 0.68) {
      const list = bad(p, ps);
      if (list.length) spec[k] = pick(list);
    }
  }
  const c = { kind: 'test', type, spec, check_tools: true };
  // A task's `tools`, sometimes: pSConfig sends the list only when it is not empty.
  const tools = catalog.toolsFor(type).map((t) => t.name);
  if (rand() < 0.3) {
    const some = tools.filter(() => rand() < 0.5);
    if (some.length) c.tools = some;
  }
  cases.push(c);
}

const verdicts = runOracle(oracleDir, JSON.stringify(cases), ['--with-tools']);
const checker = new TaskChecker();
const byType = new Map();
const rows = [];
let agree = 0;
let falseErrors = 0;
for (let i = 0; i < cases.length; i++) {
  const c = cases[i];
  const refusals = checker.check({ test: { type: c.type, spec: c.spec }, ...(c.tools ? { tools: c.tools } : {}) });
  const ours = refusals.length === 0;
  const theirs = verdicts[i].valid;
  const b = byType.get(c.type) ?? { n: 0, agree: 0, valid: 0 };
  b.n++;
  if (theirs) b.valid++;
  if (ours === theirs) {
    agree++;
    b.agree++;
  } else {
    if (!ours) falseErrors++;
    rows.push({
      type: c.type,
      spec: JSON.stringify(c.spec).slice(0, 240),
      tools: c.tools,
      oracle: theirs ? 'valid' : `refused: ${verdicts[i].reason.slice(0, 200)}`,
      ours: ours
        ? 'valid'
        : refusals
            .map((r) => r.problems.join(' | '))
            .join(' || ')
            .slice(0, 240),
    });
  }
  byType.set(c.type, b);
}
console.log(
  `${cases.length} cases: agreement ${agree}/${cases.length} (${((100 * agree) / cases.length).toFixed(2)} %); ` +
    `refused by us but accepted by pScheduler: ${falseErrors}`,
);
for (const [k, b] of [...byType].sort())
  console.log(
    `  ${k.padEnd(16)} ${String(b.agree).padStart(5)}/${String(b.n).padEnd(5)} (${b.valid} valid for pScheduler)`,
  );
reportRows(opt, rows);
