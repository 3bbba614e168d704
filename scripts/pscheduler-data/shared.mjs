// What the agreement scripts share (development only, never run by `npm test`): their command line and the
// compiled checks they load, the oracle run, the report of disagreements, a seeded random source, and valid and
// invalid values per pScheduler type or schema, built from our data files (catalog: catalog.ts compiled to out/).
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The options of a script's command line (`opt('seed', '1')`) and `load(path)`, which requires a module compiled
 * to out/. Exits 0 saying so when no oracle is given, 1 when `needs` (under out/) is not built.
 */
export function scriptSetup(name, needs) {
  const args = process.argv.slice(2);
  const opt = (key, dflt) => {
    const i = args.indexOf(`--${key}`);
    return i >= 0 ? args[i + 1] : dflt;
  };
  const oracleDir = opt('oracle');
  if (!oracleDir || !existsSync(join(oracleDir, 'oracle.py'))) {
    console.log(`${name}: no oracle given (--oracle DIR with oracle.py); nothing compared.`);
    process.exit(0);
  }
  if (!existsSync(join(root, 'out', needs))) {
    console.error(`${name}: run \`node scripts/build.mjs --tests\` first.`);
    process.exit(1);
  }
  const require = createRequire(import.meta.url);
  return { opt, oracleDir, load: (p) => require(join(root, 'out', p)) };
}

/** pScheduler's verdicts on `input` (the JSON text of a list of cases), from the oracle run with `flags`. */
export function runOracle(oracleDir, input, flags) {
  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  const run = spawnSync(python, [join(oracleDir, 'oracle.py'), ...flags], {
    input,
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    console.error(run.stderr);
    process.exit(1);
  }
  return JSON.parse(run.stdout);
}

/** The disagreements: all to `--report FILE`, the first `--show N` (40) on the console. */
export function reportRows(opt, rows) {
  const report = opt('report');
  if (report) writeFileSync(report, JSON.stringify(rows, null, 1));
  for (const r of rows.slice(0, Number(opt('show', '40')))) console.log(JSON.stringify(r));
}

/** mulberry32: reproducible cases for a given seed. */
export function makeRandom(seed) {
  function rand() {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  const pick = (list) => list[Math.floor(rand() * list.length)];
  return { rand, pick };
}

export function makeValues(catalog) {
  // ---- valid and invalid values per pScheduler type ------------------------------------------------------------
  const GOOD = {
    AnyJSON: [{ a: 1 }, 'x', 3],
    Boolean: [true, false],
    Cardinal: [1, 5, 600],
    CardinalZero: [0, 10],
    Duration: ['PT30S', 'P1DT2H', 'PT0.5S', 'PT1M'],
    Float: [0.5, 2],
    Host: ['ps.example.net', '192.0.2.1', '2001:db8::1', 'localhost', '_srv.example.net'],
    HostName: ['ps.example.net'],
    IPAddress: ['192.0.2.1', '2001:db8::1'],
    IPCIDR: ['10.0.0.0/24', '2001:db8::/64'],
    IPPort: [861, 0, 65535],
    IPPortRange: [{ lower: 8760, upper: 9960 }],
    IPTOS: [0, 32, 255],
    Integer: [3, -1, 0],
    JQTransformSpecification: [{ script: '.' }, { script: ['.', '| .'], 'output-raw': true }],
    Number: [1.5],
    Probability: [0, 0.5, 1],
    RetryPolicy: [[{ attempts: 2, wait: 'PT10S' }], []],
    SNMPNumericOID: ['1.3.6.1.2.1.1.3.0'],
    SNMPOID: ['1.3.6.1.2.1.1.3.0', 'sysUpTime'],
    String: ['text', ''],
    UInt16: [514],
    URL: ['https://archive.example.net/logstash', 'http://[2001:db8::1]/x', 'http://192.0.2.1:8080/a?b=c'],
    URLHostPort: ['ps.example.net', 'ps.example.net:443', '[2001:db8::1]:443', '192.0.2.1'],
    'ip-version': [4, 6],
  };
  const BAD = {
    Boolean: ['true', 1, 'yes'],
    Cardinal: [0, -1, 1.5, '5', 1e3],
    CardinalZero: [-1, 2.5, '0'],
    Duration: ['10 seconds', 'PT-1S', 'P1M', '30', 'pt30s', 'PT30S\n', 'P', 30],
    Float: ['0.5', true],
    Host: [
      'not a host',
      'ps.example.net:443',
      '[2001:db8::1]',
      'fe80::1%eth0',
      '',
      'host_name.example',
      5,
      'ps.example.net\n',
      '300.1.1.1',
      '01.2.3.4',
    ],
    IPAddress: ['ps.example.net', '192.0.2.256', '2001:db8::g'],
    IPCIDR: ['10.0.0.0', '10.0.0.0/33', 'x/24'],
    IPPort: [-1, 65536, '80', 1.5],
    IPPortRange: [{ lower: 1 }, { lower: 1, upper: 2, x: 3 }, [1, 2]],
    IPTOS: [256, -1, 'af11'],
    Integer: [1.5, '3', true],
    JQTransformSpecification: [{}, { script: 5 }, '.'],
    Probability: [1.5, -0.1, '0.5'],
    RetryPolicy: [
      [{ attempts: 0, wait: 'PT1S' }],
      [{ attempts: 2 }],
      { attempts: 2, wait: 'PT1S' },
      [{ attempts: 2, wait: 'PT1S', x: 1 }],
    ],
    SNMPOID: [5, ''],
    String: [5, null, ['a']],
    UInt16: [65536, -1],
    URL: [
      'archive.example.net/logstash',
      'http://exa mple.net/',
      'https://{% address[0] %}/',
      5,
      'http://2001:db8::1/',
    ],
    URLHostPort: ['2001:db8::1', 'ps.example.net:port', 'a b', 'ps.example.net:443\n'],
    'ip-version': [5, '4', 4.5],
  };
  const LOCAL_GOOD = {
    'packet-interval': [0.1, 1],
    'bucket-width': [0.001],
    portlist: ['22', '22,80', '8000-8010', '22,80-90,443'],
    PostgreSQLIdentifier: ['results', '_x$1'],
  };
  const LOCAL_BAD = {
    'packet-interval': [0, -0.1, '0.1'],
    'bucket-width': [1, 0, 1.5],
    portlist: ['80-22', '22,22', '20-25,25', '70000', 'a', '22,'],
    PostgreSQLIdentifier: ['1abc', '', 'a'.repeat(64), 'a-b'],
  };

  function labelOf(schema) {
    return schema && schema.$ref ? schema.$ref.split('/').pop() : undefined;
  }

  function resolve(p, schema) {
    if (!schema || !schema.$ref) return schema;
    const [, where, name] = /^#\/(pScheduler|local)\/(.+)$/.exec(schema.$ref) ?? [];
    return where === 'pScheduler' ? catalog.pschedulerType(name) : p.local[name];
  }

  /** A valid value for a schema (from the tables, else built from the schema). */
  function good(p, schema, variant = 0, depth = 0) {
    const label = labelOf(schema);
    if (label && (GOOD[label] || LOCAL_GOOD[label])) {
      const list = GOOD[label] ?? LOCAL_GOOD[label];
      return structuredClone(list[variant % list.length]);
    }
    const s = resolve(p, schema);
    if (s !== schema) return good(p, s, variant, depth + 1);
    if (!s || typeof s !== 'object' || depth > 8) return 'x';
    if (s.enum) return s.enum[variant % s.enum.length];
    if (s.const !== undefined) return s.const;
    if (s.anyOf || s.oneOf) return good(p, (s.anyOf ?? s.oneOf)[0], variant, depth + 1);
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    switch (type) {
      case 'integer':
        return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      case 'number':
        return s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 0.25 : (s.minimum ?? 0.5);
      case 'boolean':
        return true;
      case 'string':
        if (s.pattern === '^[^/\\0]+$') return 'blue';
        return 'x'.repeat(Math.max(1, s.minLength ?? 1));
      case 'array':
        return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => good(p, s.items, variant, depth + 1));
      case 'object':
      case undefined: {
        const o = {};
        for (const r of s.required ?? []) o[r] = good(p, s.properties?.[r], variant, depth + 1);
        if (s.patternProperties && !Object.keys(o).length) o['X-Test'] = 'v';
        return o;
      }
      default:
        return null;
    }
  }

  /** Invalid values for a schema (best effort: the oracle decides anyway). */
  function bad(p, schema) {
    const label = labelOf(schema);
    if (label && (BAD[label] || LOCAL_BAD[label])) return structuredClone(BAD[label] ?? LOCAL_BAD[label]);
    const s = resolve(p, schema);
    if (s !== schema) return bad(p, s);
    if (!s || typeof s !== 'object') return [];
    const out = [];
    if (s.enum) {
      for (const e of s.enum.slice(0, 2))
        if (typeof e === 'string' && e.length)
          out.push(e.slice(0, -1) + (e.endsWith('x') ? 'y' : 'x'), e.toUpperCase());
      out.push(17);
    }
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    if (type === 'string') out.push(5, true);
    if (type === 'integer') out.push(1.5, '1');
    if (type === 'number') out.push('1');
    if (type === 'boolean') out.push('true', 0);
    if (type === 'object') out.push('x', [], { zzz: 1 });
    if (type === 'array') out.push('x', {}, [7, 'y']);
    return out;
  }

  function propsOf(p, v) {
    const s = resolve(p, p.versions[v]);
    if (s?.properties) return s;
    // snmpget: a $ref to a oneOf of two specs; take the first
    const alt = s?.anyOf?.[0] ?? s?.oneOf?.[0];
    return alt ? resolve(p, alt) : p.unchecked?.oneOf ? resolve(p, p.unchecked.oneOf[0]) : s;
  }

  return { good, bad, labelOf, resolve, propsOf };
}
