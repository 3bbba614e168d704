// Valid values built from our data files, for "minimal and rich values of every version pass" tests. Built from
// the schemas (required keys only / every key), with a sample per pScheduler type.
import { pschedulerType, type PluginData, type Schema } from '../../../server/src/template/pscheduler/catalog';

const SAMPLE: Record<string, unknown> = {
  AnyJSON: { any: 'json' },
  Boolean: true,
  Cardinal: 5,
  CardinalZero: 0,
  Duration: 'PT30S',
  Float: 0.5,
  Host: 'ps.example.net',
  IPAddress: '192.0.2.1',
  IPCIDR: '10.0.0.0/24',
  IPPort: 861,
  IPPortRange: { lower: 8760, upper: 9960 },
  IPTOS: 32,
  Integer: 3,
  JQTransformSpecification: { script: '.' },
  Probability: 0.5,
  RetryPolicy: [{ attempts: 2, wait: 'PT10S' }],
  SNMPNumericOID: '1.3.6.1.2.1.1.3.0',
  SNMPOID: '1.3.6.1.2.1.1.3.0',
  String: 'text',
  UInt16: 514,
  URL: 'https://archive.example.net/path',
  URLHostPort: 'ps.example.net:443',
  'ip-version': 4,
  portlist: '22,80-90',
  PostgreSQLIdentifier: 'results',
  'packet-interval': 0.1,
  'bucket-width': 0.001,
};

function resolve(p: PluginData, s: Schema): Schema | undefined {
  if (!s.$ref) return s;
  const [, where, name] = /^#\/(pScheduler|local)\/(.+)$/.exec(s.$ref) ?? [];
  return where === 'pScheduler' ? pschedulerType(name) : p.local[name];
}

/** A valid value of the schema; `all` fills every declared property, not only the required ones. */
export function sample(p: PluginData, schema: Schema, all = false, depth = 0): unknown {
  const label = schema.$ref?.split('/').pop();
  if (label && label in SAMPLE) return structuredClone(SAMPLE[label]);
  const s = resolve(p, schema);
  if (!s || depth > 8) throw new Error(`no sample for ${JSON.stringify(schema)} in ${p.name}`);
  if (s !== schema) return sample(p, s, all, depth + 1);
  if (s.enum) return s.enum[0];
  if (s.const !== undefined) return s.const;
  if (s.anyOf || s.oneOf) return sample(p, (s.anyOf ?? s.oneOf)![0], all, depth + 1);
  switch (Array.isArray(s.type) ? s.type[0] : s.type) {
    case 'integer':
      return s.minimum ?? 1;
    case 'number':
      return s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 0.25 : (s.minimum ?? 0.5);
    case 'boolean':
      return true;
    case 'string':
      return s.pattern === '^[^/\\0]+$' ? 'blue' : 'x';
    case 'array':
      return s.items ? [sample(p, s.items, all, depth + 1)] : [];
    default: {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {}))
        if (k !== 'schema' && (all || (s.required ?? []).includes(k))) out[k] = sample(p, v, all, depth + 1);
      return out;
    }
  }
}

/** The object schema of a version (snmpget's version is a $ref to a oneOf of two forms: the first). */
export function versionSchema(p: PluginData, v: number): Schema {
  let s = resolve(p, p.versions[p.select === 'single' ? '1' : String(v)])!;
  if (!s.properties && (s.oneOf ?? s.anyOf)) s = resolve(p, (s.oneOf ?? s.anyOf)![0])!;
  return s;
}
