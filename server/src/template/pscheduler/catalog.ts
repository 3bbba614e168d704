// What pScheduler 5.x accepts, read from our data files (schemas/pscheduler/, see docs/checks.md):
// per test / archiver / context plug-in every schema version as the running code applies it, the common types
// of python-pscheduler's jsonval.py, and which tool runs which test. Pure: no I/O (the JSON is bundled).
import type { SchedulingClassName as SchedulingClass } from '../../../../common/protocol';
import { ARCHIVER_FILES, CONTEXT_FILES, TEST_FILES, TOOL_FILES, TYPES_FILE } from './data-files';

/** The draft-07 keywords pScheduler's skeletons use (jsonschema acts on these; our data holds nothing else). */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  required?: string[];
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  not?: Schema;
  if?: Schema;
  then?: Schema;
  else?: Schema;
}

export type PluginKind = 'test' | 'archiver' | 'context';

/** pScheduler's scheduling classes (pscheduler-server/pscheduler-server/database/scheduling_class.sql). */
export type { SchedulingClass };

/** Checks a plug-in's program makes after the schema (rules.ts). */
export type RuleId =
  'flip-needs-source' | 'netreach-network' | 'url-http-scheme' | 'single-ended-loopback' | 'routing-key-jq';

/**
 * How the program picks a schema for the value's `schema` (1 when absent):
 * - `ref`: `{"$ref": "#/local/v<schema>"}` with a maximum: an integer naming an existing version, else refused;
 * - `template`: the standard-template helper: an integer naming a version; a non-integer skips validation
 *   (the helper returns the string "False", which callers treat as true) unless `maxSchema` was checked first;
 * - `single`: one skeleton for every value; `schema` limited only by `maxSchema` (when set) and the skeleton.
 */
export type Selection = 'ref' | 'template' | 'single';

export interface PluginData {
  kind: PluginKind;
  name: string;
  /** Paths in perfsonar/pscheduler the facts come from. */
  upstream: string[];
  /** pScheduler bundle that installs it: core, extras, snmp, obsolete, or conditional (built on some hosts). */
  bundle: string;
  select: Selection;
  /** Highest `schema` accepted before any skeleton applies (null: never checked). */
  maxSchema: number | null;
  /** Tests only: the `scheduling-class` of the test's enumerate (DB/test.sql stores it on the test as it is). */
  schedulingClass?: SchedulingClass;
  /** The program reports `"valid": "False"` for a non-integer schema (the API server then accepts). */
  validFalseString?: boolean;
  rules?: RuleId[];
  notes?: string[];
  local: Record<string, Schema>;
  /** Version number → the schema applied. */
  versions: Record<string, Schema>;
  /** Top-level keywords of the skeleton that pScheduler drops (used for completion and hovers only). */
  unchecked?: Schema;
  /** Our one-line description of each property. */
  docs: Record<string, string>;
}

/** A tool-side condition (pscheduler-tool-<name>/can-run), see scripts/pscheduler-data/meta.py. */
export type ToolCondition =
  | { present: string }
  | { absent: string }
  | { all: ToolCondition[] }
  | { truthy: string }
  | { notIn: string; values: unknown[]; default?: unknown; scheme?: boolean }
  /** The value (or, with `scheme`, its URL's scheme) is one of `values`; never when absent. */
  | { in: string; values: unknown[]; scheme?: boolean }
  /** `factor` times one duration is longer than another (both present and readable). */
  | { durationTimes: string; factor: number; above: string }
  /** The value is an IPv4 or IPv6 address as inet_pton reads it (pscheduler.is_ip). */
  | { ipAddress: string }
  /** A file:// URL whose path curl's can-run refuses on every host (tools.ts fileUrlRefused). */
  | { fileUrlRefused: string; forbidden: string[] }
  | { outside: string; min?: number; max?: number }
  | { durationBelow: string; limit: string }
  | { durationAbove: string; limit: string }
  | { testType: string };

export interface ToolData {
  kind: 'tool';
  name: string;
  upstream: string[];
  bundle: string;
  tests: string[];
  preference: number;
  /** Highest spec `schema` its can-run accepts (json_check_schema). */
  maxSchema: number | null;
  platforms?: string;
  /** Its can-run checks more than is modelled: a "can run" from us may still be a "cannot" on a host. */
  partial?: boolean;
  supportedOptions?: string[];
  rules?: { when: ToolCondition; reason: string }[];
}

interface TypesData {
  upstream: string[];
  types: Record<string, Schema>;
  docs: Record<string, string>;
}

function byName<T extends { name: string }>(files: unknown[]): Map<string, T> {
  const m = new Map<string, T>();
  for (const f of files as T[]) m.set(f.name, f);
  return m;
}

const tests = byName<PluginData>(TEST_FILES);
const archivers = byName<PluginData>(ARCHIVER_FILES);
const contexts = byName<PluginData>(CONTEXT_FILES);
const tools = byName<ToolData>(TOOL_FILES);
const typesData = TYPES_FILE as TypesData;

/** The perfsonar/pscheduler commit our data follows. */
export const PSCHEDULER_COMMIT = '1e8b19245d7f3be4dcbb7f949f01da0b4337d8c3';

export function plugin(kind: PluginKind, name: string): PluginData | undefined {
  const table = kind === 'test' ? tests : kind === 'archiver' ? archivers : contexts;
  return table.get(name);
}

export function pluginNames(kind: PluginKind): string[] {
  return [...(kind === 'test' ? tests : kind === 'archiver' ? archivers : contexts).keys()];
}

export function allPlugins(): PluginData[] {
  return [...tests.values(), ...archivers.values(), ...contexts.values()];
}

export function tool(name: string): ToolData | undefined {
  return tools.get(name);
}

export function allTools(): ToolData[] {
  return [...tools.values()];
}

/** Tools whose enumerate lists the test type. */
export function toolsFor(testType: string): ToolData[] {
  return allTools().filter((t) => t.tests.includes(testType));
}

/** A standard pScheduler type (`#/pScheduler/Name`). */
export function pschedulerType(name: string): Schema | undefined {
  return Object.prototype.hasOwnProperty.call(typesData.types, name) ? typesData.types[name] : undefined;
}

/** Our description of a standard type ("an integer >= 1"). */
export function typeDoc(name: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(typesData.docs, name) ? typesData.docs[name] : undefined;
}

/** Version numbers of a plug-in, ascending. */
export function versionNumbers(p: PluginData): number[] {
  return Object.keys(p.versions)
    .map(Number)
    .sort((a, b) => a - b);
}

/** The versions a `schema` value may name: every stored version, or 1..maxSchema for a single skeleton. */
export function acceptedVersions(p: PluginData): number[] {
  let v = accepted.get(p);
  if (!v) {
    v = p.select !== 'single' ? versionNumbers(p) : Array.from({ length: p.maxSchema ?? 1 }, (_, i) => i + 1);
    accepted.set(p, v);
  }
  return v;
}
const accepted = new WeakMap<PluginData, number[]>();
