// Compares our pScheduler checks with pScheduler's own validators on generated cases (development only; never run
// by `npm test`). For every test / archiver / context plug-in and every schema version it builds minimal and rich
// valid values from our data files, then mutates them (wrong types, "10 seconds", 0 / -1 / 1.5 for cardinals,
// enum values off by a letter, later-version fields without `schema`, missing required fields, unknown keys,
// odd `schema` values, the programs' own rules) and adds random combinations. Each case is judged by our checker
// (server/src/template/pscheduler, compiled to out/) and by pScheduler's programs through the oracle.
//
//   node scripts/build.mjs --tests
//   node scripts/pscheduler-data/agreement.mjs --oracle PATH/TO/pscheduler-oracle [--profile el8] [--seed 1]
//
// Without --oracle (or when it is not there) it says so and exits 0.
import { writeFileSync } from 'node:fs';
import { makeRandom, makeValues, reportRows, runOracle, scriptSetup } from './shared.mjs';

const { opt, oracleDir, load } = scriptSetup('agreement', 'server/src/template/pscheduler/check.js');
const profile = opt('profile', 'debian12');
const seed = Number(opt('seed', '1'));
const randomPer = Number(opt('random', '60'));
const catalog = load('server/src/template/pscheduler/catalog.js');
const { checkJsonText } = load('server/src/template/pscheduler/check.js');
const jq = load('server/src/template/jq/index.js');

const { rand, pick } = makeRandom(seed);
const { good, bad, labelOf, propsOf } = makeValues(catalog);

// ---- case generation --------------------------------------------------------------------------------------------
const cases = [];
function add(kind, name, value, why, raw) {
  const text = raw ?? JSON.stringify(value);
  cases.push({ kind, name, text, why });
}

for (const p of catalog.allPlugins()) {
  const versions = catalog.acceptedVersions(p);
  const max = Math.max(...versions);
  for (const v of versions) {
    const s = propsOf(p, v) ?? {};
    const props = s.properties ?? {};
    const withSchema = (o) => (p.kind === 'test' || 'schema' in props || v > 1 ? { schema: v, ...o } : o);
    const minimal = good(p, s, 0);
    const rich = { ...minimal };
    for (const [k, ps] of Object.entries(props)) if (k !== 'schema') rich[k] = good(p, ps, 0);
    const baseMin = withSchema(minimal);
    const baseRich = withSchema(rich);
    add(p.kind, p.name, baseMin, `v${v} minimal`);
    add(p.kind, p.name, baseRich, `v${v} rich`);
    add(p.kind, p.name, minimal, `v${v} minimal without schema`);
    for (let variant = 1; variant < 4; variant++) {
      const r = withSchema({ ...good(p, s, variant) });
      for (const [k, ps] of Object.entries(props)) if (k !== 'schema') r[k] = good(p, ps, variant);
      add(p.kind, p.name, r, `v${v} rich variant ${variant}`);
    }
    for (const [k, ps] of Object.entries(props)) {
      if (k === 'schema') continue;
      for (const b of bad(p, ps)) add(p.kind, p.name, { ...baseMin, [k]: b }, `v${v} ${k} bad ${JSON.stringify(b)}`);
      if ((s.required ?? []).includes(k)) {
        const { [k]: _, ...without } = baseRich;
        add(p.kind, p.name, without, `v${v} without ${k}`);
      }
      add(p.kind, p.name, { ...baseMin, [`${k}x`]: baseRich[k] }, `v${v} misspelt ${k}`);
    }
    add(p.kind, p.name, { ...baseRich, _meta: { a: 1 } }, `v${v} _meta inside`);
    add(p.kind, p.name, { ...baseRich, '#note': 'comment' }, `v${v} # comment key`);
    add(p.kind, p.name, { ...baseRich, durration: 'PT10S' }, `v${v} unknown key`);
    // fields of later versions without raising schema
    for (const w of versions.filter((x) => x > v)) {
      const later = propsOf(p, w)?.properties ?? {};
      for (const [k, ps] of Object.entries(later))
        if (!(k in props)) add(p.kind, p.name, { ...baseMin, [k]: good(p, ps, 0) }, `v${v} with v${w}'s ${k}`);
    }
    // odd schema values
    const { schema: _s, ...noSchema } = baseMin;
    for (const raw of ['0', '-1', String(max + 1), '"1"', '1.0', '2.0', 'true', 'null', '1e0'])
      add(
        p.kind,
        p.name,
        null,
        `v${v} schema ${raw}`,
        JSON.stringify({ ...noSchema, schema: '@@' }).replace('"@@"', raw),
      );
    // random combinations
    const keys = Object.keys(props).filter((k) => k !== 'schema');
    for (let i = 0; i < randomPer; i++) {
      const o = withSchema({ ...minimal });
      for (const k of keys) {
        const r = rand();
        if (r < 0.4) o[k] = good(p, props[k], Math.floor(rand() * 4));
        else if (r < 0.5) {
          const list = bad(p, props[k]);
          if (list.length) o[k] = pick(list);
        }
      }
      if (rand() < 0.2 && keys.length) delete o[pick(keys)];
      if (rand() < 0.1) o[pick(['durration', 'flip', 'reverse', 'tool', 'Dest'])] = true;
      add(p.kind, p.name, o, `v${v} random ${i}`);
    }
  }
  for (const raw of ['[]', '"x"', 'null', '5', '{}']) add(p.kind, p.name, null, `not an object: ${raw}`, raw);
}

// the programs' own rules
const rule = (kind, name, value, why) => add(kind, name, value, `rule: ${why}`);
for (const t of ['latency', 'latencybg']) {
  rule('test', t, { schema: 1, dest: 'a.example.net', flip: true }, `${t} flip without source`);
  rule('test', t, { schema: 1, dest: 'a.example.net', flip: false }, `${t} flip false without source`);
  rule('test', t, { schema: 1, dest: 'a.example.net', source: 'b.example.net', flip: true }, `${t} flip with source`);
}
rule('test', 'throughput', { schema: 1, dest: 'h', 'single-ended': true }, 'single-ended only');
rule(
  'test',
  'throughput',
  { schema: 4, dest: 'h', 'single-ended': false, loopback: false },
  'single-ended and loopback both false',
);
rule('test', 'throughput', { schema: 4, dest: 'h', loopback: true }, 'loopback only');
for (const ports of ['22,22', '80-22', '20-25,22', '20-25,25', '22,80,443', '1-3,4-6,6'])
  rule('test', 'openports', { schema: 1, network: '10.0.0.0/24', ports }, `ports ${ports}`);
for (const url of [
  'http://s3.example.net/',
  'HTTPS://s3.example.net/',
  'ftp://s3.example.net/',
  's3.example.net',
  'file:///x',
])
  rule(
    'test',
    's3throughput',
    { schema: 1, '_access-key': 'a', bucket: 'b', '_secret-key': 'c', url, 'object-size': 1 },
    `s3 url ${url}`,
  );
const nets = [
  '10.0.0.0/24',
  '10.0.0.1/24',
  '10.0.0.0/30',
  '10.0.0.0/31',
  '10.0.0.0/32',
  '10.0.0.0',
  '2001:db8::/64',
  '2001:db8::/127',
  'x',
  '10.0.0.0/255.255.255.0',
  '10.0.0.0/0.0.0.255',
];
const gws = [
  undefined,
  1,
  -1,
  2,
  -2,
  0,
  253,
  254,
  255,
  300,
  '10.0.0.1',
  '10.0.0.0',
  '10.0.0.255',
  '10.0.1.1',
  '2001:db8::1',
  'x',
  1.5,
  true,
  null,
];
for (const network of nets)
  for (const gateway of gws) {
    const o = { schema: 1, network };
    if (gateway !== undefined) o.gateway = gateway;
    rule('test', 'netreach', o, `netreach ${network} gw ${JSON.stringify(gateway)}`);
    if (gateway !== undefined)
      rule('test', 'netreach', { ...o, limit: 0 }, `netreach ${network} gw ${JSON.stringify(gateway)} limit 0`);
  }
rule('test', 'netreach', { schema: 1, gateway: 1 }, 'netreach without network');
rule('test', 'netreach', { schema: 7, network: '10.0.0.0/24' }, 'netreach schema 7');
for (const rk of ['x', { script: '.' }, { script: '.foo |' }, { script: ['.', '| length'] }, { script: '$x' }])
  rule(
    'archiver',
    'rabbitmq',
    { schema: 2, _url: 'amqp://h/', 'routing-key': rk },
    `routing key ${JSON.stringify(rk)}`,
  );
rule('archiver', 'rabbitmq', { schema: 3, _url: 'amqp://h/' }, 'rabbitmq schema 3');
rule('archiver', 'tcp', { host: 'h', port: 1, schema: 1 }, 'tcp with schema 1');
rule('archiver', 'kafka', { schema: '2', topic: 't', server: 's' }, 'kafka string schema');
rule('test', 'clock', { schema: '1', dest: 'h' }, 'clock string schema');
rule('test', 'nosuchtest', { schema: 1 }, 'unknown test type');
rule('archiver', 'htp', { schema: 1 }, 'unknown archiver');

// tricky strings and numbers for every type that looks at content, each in a field of that type
const TRICKY_STRINGS = [
  'ps.example.net',
  'ps.example.net.',
  'PS.Example.NET',
  '_srv._tcp.example.net',
  'a._b.example',
  'a-.example',
  '-a.example',
  'a'.repeat(63) + '.example',
  'a'.repeat(64) + '.example',
  ('a'.repeat(60) + '.').repeat(5) + 'net',
  'localhost',
  'x',
  '1',
  '192.0.2.1',
  '192.0.2.01',
  '0.0.0.0',
  '255.255.255.255',
  '256.1.1.1',
  '1.2.3',
  '1.2.3.4.5',
  '::',
  '::1',
  '1::',
  '2001:db8::1',
  '2001:DB8::A',
  '2001:db8:0:0:0:0:0:1',
  '2001:db8::1::2',
  '1:2:3:4:5:6:7:8',
  '1:2:3:4:5:6:7:8:9',
  '::ffff:192.0.2.1',
  '::ffff:192.0.2.01',
  '2001:db8::12345',
  'fe80::1%eth0',
  '[2001:db8::1]',
  '[2001:db8::1]:443',
  '[192.0.2.1]:80',
  'host:443',
  'host:',
  'host:0',
  'host:99999',
  'h_st:80',
  'a b',
  ' ps.example.net',
  'ps.example.net ',
  'ps.example.net\n',
  'ps.example.net\n\n',
  'pś.example.net',
  '',
  'PT30S',
  'PT30S\n',
  'P1W',
  'P1D',
  'PT1H30M',
  'PT0.5S',
  'P1DT2H3M4.5S',
  'PT',
  'P',
  'P1M',
  'P1Y',
  'R5/PT1M',
  '-PT1S',
  'PT1.S',
  'PT.5S',
  'pt30s',
  'PT30s',
  '30',
  '10 seconds',
  'https://a.example/x',
  'http://[2001:db8::1]:8080/p?q=1#f',
  'http://2001:db8::1/',
  'ftp://u:p@h/',
  'mailto:a@b',
  'urn:isbn:0451450523',
  'http://h/a b',
  'http://h/%zz',
  'http://h/%20',
  'http://exa_mple/',
  'http:',
  'h://',
  'https://{% address[0] %}/',
  'http://[v1.fe]/',
  'http://h:port/',
  'http://h:8080:9090/',
  'http://h/ü',
  '10.0.0.0/24',
  '10.0.0.0/33',
  '10.0.0.1/24',
  '2001:db8::/64',
  '2001:db8::/129',
  '1.3.6.1.2.1.1.3.0',
  '.1.3.6',
  'sysUpTime',
  '1..3',
  'a@b',
  'ab',
];
const TRICKY_NUMBERS = [
  '0',
  '1',
  '-1',
  '1.0',
  '1.5',
  '255',
  '256',
  '65535',
  '65536',
  '1e2',
  '0.0',
  '-0',
  '1E0',
  '99999999999',
];
const representative = new Map(); // type label -> [kind, plugin, version, key]
for (const p of catalog.allPlugins())
  for (const v of catalog.acceptedVersions(p)) {
    const props = propsOf(p, v)?.properties ?? {};
    for (const [k, ps] of Object.entries(props)) {
      const label = labelOf(ps);
      if (label && k !== 'schema' && !representative.has(label)) representative.set(label, [p, v, k]);
    }
  }
for (const [label, [p, v, k]] of representative) {
  const s = propsOf(p, v);
  const base = { ...(p.kind === 'test' || v > 1 ? { schema: v } : {}), ...good(p, s, 0) };
  for (const t of TRICKY_STRINGS) add(p.kind, p.name, { ...base, [k]: t }, `tricky ${label} ${JSON.stringify(t)}`);
  for (const n of TRICKY_NUMBERS)
    add(p.kind, p.name, null, `tricky ${label} ${n}`, JSON.stringify({ ...base, [k]: '@@' }).replace('"@@"', n));
}

// ---- judge ------------------------------------------------------------------------------------------------------
const input = `[${cases.map((c) => `{"kind":${JSON.stringify(c.kind)},"${c.kind === 'test' ? 'type' : 'name'}":${JSON.stringify(c.name)},"${c.kind === 'test' ? 'spec' : 'data'}":${c.text}}`).join(',\n')}]`;
const oracle = (prof) => runOracle(oracleDir, input, ['--profile', prof]);
const verdicts = oracle(profile);
// The rabbitmq routing-key jq is compiled by the editor's asynchronous jq check (rules/jq-expressions.ts):
// run that same check here for those cases.
const routingKeys = cases.map((c) => {
  if (c.kind !== 'archiver' || c.name !== 'rabbitmq') return undefined;
  let v;
  try {
    v = JSON.parse(c.text);
  } catch {
    return undefined;
  }
  const s = v && typeof v === 'object' ? v['routing-key']?.script : undefined;
  return typeof s === 'string'
    ? s
    : Array.isArray(s) && s.every((l) => typeof l === 'string')
      ? s.join('\n')
      : undefined;
});
const jqErrors = await jq.checkJqCompiles(
  [...new Set(routingKeys.filter((x) => x !== undefined))],
  jq.getDefaultJqRunner(),
);
const rows = [];
const byPlugin = new Map();
let agree = 0;
for (let i = 0; i < cases.length; i++) {
  const c = cases[i];
  const ours = checkJsonText(c.kind, c.name, c.text, { profile });
  const oursValid =
    (ours ? !ours.problems.some((q) => q.severity === 'error') : false) &&
    !(routingKeys[i] !== undefined && jqErrors.get(routingKeys[i]));
  const theirs = verdicts[i].valid;
  const key = `${c.kind}/${c.name}`;
  const b = byPlugin.get(key) ?? { n: 0, agree: 0, valid: 0 };
  b.n++;
  if (theirs) b.valid++;
  if (oursValid === theirs) {
    agree++;
    b.agree++;
  } else
    rows.push({
      plugin: key,
      why: c.why,
      text: c.text.length > 160 ? `${c.text.slice(0, 157)}...` : c.text,
      oracle: theirs ? 'valid' : `refused: ${verdicts[i].reason.slice(0, 160)}`,
      ours: oursValid
        ? 'valid'
        : (ours?.problems ?? [])
            .map((q) => q.message)
            .join(' | ')
            .slice(0, 200) || 'unknown plug-in',
    });
  byPlugin.set(key, b);
}
console.log(
  `profile ${profile}: ${cases.length} cases, agreement ${agree}/${cases.length} (${((100 * agree) / cases.length).toFixed(2)} %)`,
);
for (const [k, b] of [...byPlugin].sort())
  console.log(
    `  ${k.padEnd(24)} ${String(b.agree).padStart(5)}/${String(b.n).padEnd(5)} (${b.valid} valid for pScheduler)`,
  );
reportRows(opt, rows);

// --vectors FILE: the non-random cases with pScheduler's verdict on both host profiles, as unit-test data
const vectorsFile = opt('vectors');
if (vectorsFile) {
  const other = oracle(profile === 'el8' ? 'debian12' : 'el8');
  const both = profile === 'el8' ? { el8: verdicts, debian12: other } : { debian12: verdicts, el8: other };
  const lines = [];
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i];
    if (/ random \d+$/.test(c.why) || routingKeys[i] !== undefined) continue;
    const d = both.debian12[i].valid;
    const e = both.el8[i].valid;
    lines.push(
      JSON.stringify({ kind: c.kind, name: c.name, value: c.text, debian12: d, ...(e !== d ? { el8: e } : {}) }),
    );
  }
  writeFileSync(vectorsFile, `[\n${lines.join(',\n')}\n]\n`);
  console.log(`${lines.length} vectors written to ${vectorsFile}`);
}
