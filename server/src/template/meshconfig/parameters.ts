// MeshConfig test `parameters` → a pSConfig test (type + spec), the task's tools and its schedule, one entry per
// MeshConfig parameter type. The facts come from pSConfig 4.x's translator, perfsonar/perl-shared @ 033b9215
// libperfsonar/libperfsonar/lib/perfSONAR_PS/Client/PSConfig/Translators/MeshConfig/Config.pm: convert_psb_bwctl
// (lines 702-771), convert_psb_owamp (773-797), convert_pinger (799-839), convert_simplestream (841-884),
// convert_trace (886-952); the parameter names each type may carry come from the MeshConfig schema
// (…/MeshConfig/Schema.pm, TestParameters*Specification). Written as a table here, not as one function per type.
import { MESHCONFIG_ROLE_VARIABLES as ROLE } from '../legacy-variables';
import { intOf, isDefined, isSet, isTrue, isoSeconds, numberOf, type JsonObject } from './values';

/** How a MeshConfig value becomes a spec value. */
type Conversion =
  /** whole number (`int()`), when set (non-zero) */
  | 'int'
  /** whole number, whenever present (`defined`): 0 counts */
  | 'int-defined'
  /** number (`* 1.0`), when set */
  | 'number'
  /** number, whenever present */
  | 'number-defined'
  /** seconds → ISO 8601 duration, when set */
  | 'duration'
  /** `true` when the MeshConfig boolean is true */
  | 'flag'
  /** the string as it is, when non-empty */
  | 'string';

interface SpecField {
  /** MeshConfig parameter name. */
  from: string;
  /** pScheduler spec field. */
  to: string;
  as: Conversion;
}

/** Why a known MeshConfig parameter has no pSConfig counterpart (shown in the list of what is not translated). */
const DROPPED_WHY: Record<string, string> = {
  force_bidirectional:
    'each pair is measured once, scheduled by its first address (pSConfig\'s translator adds a second "scheduled by destination" task only with --use-force-bidirectional)',
  random_start_percentage: "pSConfig randomises the start with the schedule's `slip` and `sliprand` instead",
  latest_time: 'pSConfig has no latest start time',
  time_slots: 'pSConfig schedules have no time slots',
  loss_threshold: 'the pScheduler latencybg test has no loss threshold',
  session_count: 'latencybg runs continuously; pScheduler has no session count',
  pause: 'the pScheduler trace test has no pause between probes',
};

export interface ParameterType {
  /** pScheduler test type. */
  testType: string;
  /** Spec template variables, always set. */
  variables: Record<string, string>;
  fields: SpecField[];
  /** The parameter giving the repeat interval (seconds); none for continuous tests. */
  interval?: string;
  /** How the `tool` parameter maps to pScheduler tools; none: not read. */
  tools?: 'bwctl-throughput' | 'bwctl-trace' | 'as-is';
  /** Known parameters that are not translated (keys of DROPPED_WHY). */
  dropped: string[];
  /** Extra handling of one type, applied after the fields. */
  extra?: (params: JsonObject, spec: JsonObject) => void;
}

// The variables the translator writes for MeshConfig's fixed roles (shared with the fixes: legacy-variables.ts).
const PAIR_VARIABLES = {
  source: ROLE.source,
  dest: ROLE.dest,
  'source-node': ROLE['source-node'],
  'dest-node': ROLE['dest-node'],
};
const SOURCE_NODE_ONLY = { source: ROLE.source, dest: ROLE.dest, 'source-node': ROLE['source-node'] };

export const PARAMETER_TYPES: Record<string, ParameterType> = {
  'perfsonarbuoy/bwctl': {
    testType: 'throughput',
    variables: PAIR_VARIABLES,
    interval: 'interval',
    tools: 'bwctl-throughput',
    fields: [
      { from: 'duration', to: 'duration', as: 'duration' },
      { from: 'omit_interval', to: 'omit', as: 'duration' },
      { from: 'report_interval', to: 'interval', as: 'duration' },
      { from: 'streams', to: 'parallel', as: 'int' },
      { from: 'tos_bits', to: 'ip-tos', as: 'int' },
      { from: 'buffer_length', to: 'buffer-length', as: 'int' },
      { from: 'window_size', to: 'window-size', as: 'int' },
      { from: 'client_cpu_affinity', to: 'client-cpu-affinity', as: 'int-defined' },
      { from: 'server_cpu_affinity', to: 'server-cpu-affinity', as: 'int-defined' },
      { from: 'flow_label', to: 'flow-label', as: 'int' },
      { from: 'mss', to: 'mss', as: 'int' },
      { from: 'dscp', to: 'dscp', as: 'int-defined' },
      { from: 'no_delay', to: 'no-delay', as: 'flag' },
      { from: 'congestion', to: 'congestion', as: 'string' },
    ],
    dropped: ['force_bidirectional', 'latest_time', 'random_start_percentage', 'time_slots'],
    extra: (params, spec) => {
      // UDP gets its bandwidth from udp_bandwidth; TCP from tcp_bandwidth (Config.pm 765-770).
      if (params.protocol === 'udp') {
        spec.udp = true;
        const bw = intOf(params.udp_bandwidth);
        if (isSet(params.udp_bandwidth) && bw !== undefined) spec.bandwidth = bw;
      } else if (isSet(params.tcp_bandwidth)) {
        const bw = intOf(params.tcp_bandwidth);
        if (bw !== undefined) spec.bandwidth = bw;
      }
    },
  },
  'perfsonarbuoy/owamp': {
    testType: 'latencybg',
    variables: { ...PAIR_VARIABLES, flip: ROLE.flip },
    fields: [
      { from: 'sample_count', to: 'packet-count', as: 'int' },
      { from: 'tos_bits', to: 'ip-tos', as: 'int' },
      { from: 'packet_padding', to: 'packet-padding', as: 'int-defined' },
      { from: 'packet_interval', to: 'packet-interval', as: 'number' },
      { from: 'bucket_width', to: 'bucket-width', as: 'number' },
      { from: 'output_raw', to: 'output-raw', as: 'flag' },
    ],
    dropped: ['force_bidirectional', 'loss_threshold', 'session_count'],
  },
  pinger: {
    testType: 'rtt',
    variables: SOURCE_NODE_ONLY,
    interval: 'test_interval',
    fields: [
      { from: 'packet_count', to: 'count', as: 'int' },
      { from: 'packet_size', to: 'length', as: 'int' },
      { from: 'packet_ttl', to: 'ttl', as: 'int' },
      { from: 'tos_bits', to: 'ip-tos', as: 'int' },
      // Config.pm:827 writes `flowlabel`, a field pScheduler's rtt spec does not have (it refuses the task): the
      // rtt spec's field is `flow-label`.
      { from: 'flowlabel', to: 'flow-label', as: 'int-defined' },
      { from: 'hostnames', to: 'hostnames', as: 'flag' },
      { from: 'suppress_loopback', to: 'suppress-loopback', as: 'flag' },
      { from: 'packet_interval', to: 'interval', as: 'duration' },
      // (Config.pm 828 also sets `deadline` to int(deadline) whenever `flowlabel` is defined, a slip for
      // `deadline`: 0 when no deadline is given. Only the duration form of line 837 is kept here.)
      { from: 'deadline', to: 'deadline', as: 'duration' },
      { from: 'timeout', to: 'timeout', as: 'duration' },
    ],
    dropped: ['force_bidirectional', 'random_start_percentage'],
  },
  simplestream: {
    testType: 'simplestream',
    variables: PAIR_VARIABLES,
    interval: 'interval',
    tools: 'as-is',
    fields: [
      { from: 'dawdle', to: 'dawdle', as: 'duration' },
      { from: 'timeout', to: 'timeout', as: 'duration' },
      { from: 'fail', to: 'fail', as: 'number-defined' },
      { from: 'test_material', to: 'test-material', as: 'string' },
    ],
    dropped: ['force_bidirectional', 'random_start_percentage'],
  },
  traceroute: {
    testType: 'trace',
    variables: SOURCE_NODE_ONLY,
    interval: 'test_interval',
    tools: 'bwctl-trace',
    fields: [
      { from: 'packet_size', to: 'length', as: 'int' },
      { from: 'first_ttl', to: 'first-ttl', as: 'int' },
      { from: 'max_ttl', to: 'hops', as: 'int' },
      { from: 'queries', to: 'queries', as: 'int' },
      { from: 'tos_bits', to: 'ip-tos', as: 'int' },
      { from: 'as', to: 'as', as: 'flag' },
      { from: 'fragment', to: 'fragment', as: 'flag' },
      { from: 'hostnames', to: 'hostnames', as: 'flag' },
      // The older names first, the newer ones override them (Config.pm 938-951).
      { from: 'timeout', to: 'wait', as: 'duration' },
      { from: 'waittime', to: 'sendwait', as: 'duration' },
      { from: 'wait', to: 'wait', as: 'duration' },
      { from: 'sendwait', to: 'sendwait', as: 'duration' },
      { from: 'protocol', to: 'probe-type', as: 'string' },
      { from: 'algorithm', to: 'algorithm', as: 'string' },
      { from: 'probe_type', to: 'probe-type', as: 'string' },
    ],
    dropped: ['force_bidirectional', 'pause', 'random_start_percentage'],
  },
};

/** Parameters every type reads besides its fields: the type itself, the IP version, the interval, slip, tools. */
const COMMON = ['type', 'ipv4_only', 'ipv6_only', 'slip', 'slip_randomize'];

/** Names a parameter object of this type may hold that this translation reads. */
export function readParameters(kind: ParameterType): Set<string> {
  const names = new Set([...COMMON, ...kind.fields.map((f) => f.from)]);
  if (kind.interval) names.add(kind.interval);
  if (kind.tools) names.add('tool');
  if (kind.testType === 'throughput') for (const n of ['protocol', 'udp_bandwidth', 'tcp_bandwidth']) names.add(n);
  return names;
}

export function droppedReason(name: string): string | undefined {
  return DROPPED_WHY[name];
}

export interface FieldProblem {
  parameter: string;
  message: string;
}

/** The pScheduler spec of one MeshConfig parameter object, with the values that could not be read. */
export function buildSpec(kind: ParameterType, params: JsonObject, problems: FieldProblem[]): JsonObject {
  const spec: JsonObject = { ...kind.variables };
  for (const f of kind.fields) {
    const raw = params[f.from];
    const value = convert(f.as, raw);
    if (value === SKIP) continue;
    if (value === BAD) {
      problems.push({ parameter: f.from, message: `${JSON.stringify(raw)} is not a valid ${describe(f.as)}` });
      continue;
    }
    spec[f.to] = value;
  }
  // ipv6_only wins when both are set: the Perl translator sets 4, then 6.
  if (isTrue(params.ipv4_only)) spec['ip-version'] = 4;
  if (isTrue(params.ipv6_only)) spec['ip-version'] = 6;
  kind.extra?.(params, spec);
  return spec;
}

const SKIP = Symbol('skip');
const BAD = Symbol('bad');

function convert(as: Conversion, raw: unknown): unknown {
  const wanted = as === 'int-defined' || as === 'number-defined' ? isDefined(raw) : isSet(raw);
  if (!wanted) return SKIP;
  switch (as) {
    case 'int':
    case 'int-defined':
      return intOf(raw) ?? BAD;
    case 'number':
    case 'number-defined':
      return numberOf(raw) ?? BAD;
    case 'duration':
      return isoSeconds(raw) ?? BAD;
    case 'flag':
      return isTrue(raw) ? true : SKIP;
    case 'string':
      return typeof raw === 'string' ? raw : BAD;
  }
}

function describe(as: Conversion): string {
  return as === 'duration' ? 'number of seconds' : as === 'string' ? 'string' : 'number';
}

/** The schedule of a test that repeats: `repeat` every interval, `slip` the slip parameter or the interval capped
 *  at 12 hours, `sliprand` unless slip_randomize is false (Config.pm 726-736 and the same lines of each type). */
export function buildSchedule(kind: ParameterType, params: JsonObject): JsonObject {
  const schedule: JsonObject = {};
  const interval = kind.interval ? params[kind.interval] : undefined;
  const seconds = numberOf(interval);
  if (isSet(interval) && seconds !== undefined) schedule.repeat = isoSeconds(seconds);
  const slip = numberOf(params.slip);
  if (isSet(params.slip) && slip !== undefined) schedule.slip = isoSeconds(slip);
  else if (isSet(interval) && seconds !== undefined) schedule.slip = isoSeconds(Math.min(seconds, 43200));
  if (!(isDefined(params.slip_randomize) && !isTrue(params.slip_randomize))) schedule.sliprand = true;
  return kind.interval ? schedule : {};
}

/**
 * Tool names of the MeshConfig era that pScheduler knows by another name, as the MeshConfig-era agent renamed them
 * when it built pScheduler tasks: perfsonar/perl-shared fe81fc0c ("changed name in pScheduler of iperf tool to
 * iperf2"), lib/perfSONAR_PS/RegularTesting/Tests/Bwctl.pm:188-193 (`$tool = 'iperf2' if($tool eq 'iperf')`), kept by
 * 3ba667d6 (lines 188-199: `iperf` → `bwctliperf2`, `iperf2`). pSConfig 4.x's translator (Config.pm:712-723) wrote
 * `iperf`, a name pScheduler never had: its tasks ran only because `bwctliperf2` came first. Throughput tools only.
 */
export const PSCHEDULER_TOOL_NAMES: Readonly<Record<string, string>> = { iperf: 'iperf2' };

export interface ToolOptions {
  /** As `--disable-bwctl`: no BWCTL variants. */
  disableBwctl: boolean;
  /** Rename tools to pScheduler's names (PSCHEDULER_TOOL_NAMES); off for `--as-4x`, which keeps Config.pm's names. */
  pschedulerNames?: boolean;
}

/** The pScheduler tools of a `tool` parameter: comma-separated, `bwctl/` prefixes dropped, and (unless
 *  `disableBwctl`) the BWCTL variant first for iperf, iperf3, traceroute and tracepath (Config.pm:708-724 and convert_trace);
 *  with `pschedulerNames`, `iperf` as pScheduler's `iperf2`. `renamed` lists each rename made. */
export function buildTools(
  kind: ParameterType,
  tool: unknown,
  options: ToolOptions,
): { tools: string[]; renamed: [string, string][] } {
  const out: string[] = [];
  const renamed: [string, string][] = [];
  if (!kind.tools || typeof tool !== 'string' || tool === '') return { tools: out, renamed };
  for (const part of tool.split(',')) {
    let name = part.trim();
    if (kind.tools !== 'as-is') name = name.replace(/^bwctl\//, '');
    if (!name) continue;
    if (!options.disableBwctl) {
      const bwctl =
        kind.tools === 'bwctl-throughput'
          ? { iperf: 'bwctliperf2', iperf3: 'bwctliperf3' }[name]
          : kind.tools === 'bwctl-trace'
            ? { traceroute: 'bwctltraceroute', tracepath: 'bwctltracepath' }[name]
            : undefined;
      if (bwctl) out.push(bwctl);
    }
    const pscheduler =
      options.pschedulerNames &&
      kind.tools === 'bwctl-throughput' &&
      Object.prototype.hasOwnProperty.call(PSCHEDULER_TOOL_NAMES, name)
        ? PSCHEDULER_TOOL_NAMES[name]
        : undefined;
    if (pscheduler) renamed.push([name, pscheduler]);
    out.push(pscheduler ?? name);
  }
  return { tools: out, renamed };
}
