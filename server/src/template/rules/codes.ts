// Every diagnostic code the checks produce: stable strings, documented in the README's table of checks
// (test/unit/template/diagnostic-codes.test.ts fails when a code is missing from either side).
export const DIAGNOSTIC_CODES = [
  // syntax and schema
  'psconfig/syntax',
  'psconfig/duplicate-key',
  'psconfig/unknown-property',
  'psconfig/missing-property',
  'psconfig/wrong-type',
  'psconfig/invalid-enum',
  'psconfig/invalid-name',
  'psconfig/invalid-duration',
  'psconfig/invalid-time',
  'psconfig/invalid-host-port',
  'psconfig/invalid-netmask',
  'psconfig/invalid-value',
  'psconfig/out-of-range',
  'psconfig/selector-shape',
  'psconfig/name-not-validated',
  // references
  'psconfig/unknown-group',
  'psconfig/unknown-test',
  'psconfig/unknown-schedule',
  'psconfig/unknown-archive',
  'psconfig/unknown-subtask',
  'psconfig/unknown-address',
  'psconfig/unknown-address-class',
  'psconfig/unknown-host',
  'psconfig/unknown-context',
  'psconfig/unknown-label',
  'psconfig/unknown-remote-address',
  // template variables and jq
  'psconfig/unknown-variable',
  'psconfig/variable-missing-space',
  'psconfig/variable-index',
  'psconfig/standalone-localhost',
  'psconfig/variable-not-expanded',
  'psconfig/jq-compile',
  'psconfig/jq-unavailable',
  'psconfig/jq-result-not-string',
  // semantics and agent behaviour
  'psconfig/scheduled-by-range',
  'psconfig/esmond-archiver',
  'psconfig/default-label-unused',
  'psconfig/subtasks-no-effect',
  'psconfig/include',
  'psconfig/unused-definition',
  'psconfig/netmask-filter',
  'psconfig/class-selector-python',
  'psconfig/selector-disabled-ignored',
  'psconfig/priority-zero',
  'psconfig/reserved-reference-key',
  'psconfig/schedule-until-overridden',
  // limits
  'psconfig/too-many-problems',
  'psconfig/too-large',
] as const;

export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];
