// The diagnostic value every check produces (offsets into the template text; the LSP layer converts them).
import type { DiagnosticCode } from './codes';
import type { JsonPath } from '../json-node';

export type { DiagnosticCode } from './codes';

export type Severity = 'error' | 'warning' | 'information' | 'hint';
export type DiagnosticTag = 'unnecessary' | 'deprecated';

/** Extra data for quick fixes. */
export type DiagnosticData =
  /** `path`: where the reference sits in the tree (keys and array indexes from the root), so a fix still finds it
   *  when the client hands the range back shifted (byte columns, an older version). */
  | { kind: 'missing-ref'; section: string; name: string; closest?: string; address?: string; path?: JsonPath }
  | { kind: 'unknown-property'; property: string; closest?: string }
  | { kind: 'missing-property'; property: string }
  | { kind: 'unused'; section: string; name: string }
  /** Replace the string at the diagnostic's range (an unknown test type, archiver, tool or enum value). */
  | { kind: 'replace-value'; value: string }
  /** Set `schema` of the object the diagnostic's key belongs to (a field of a later schema version). */
  | { kind: 'set-schema'; version: number }
  /** Change a schedule object: each change was re-simulated and the template then fits (rules/schedule.ts). */
  | { kind: 'schedule-change'; changes: ScheduleChange[] }
  /** A MeshConfig file: translate it to a pSConfig template (meshconfig/). */
  | { kind: 'translate-meshconfig' };

/** Fields to set in the schedule object `schedule` (ISO 8601 durations as the template writes them). */
export interface ScheduleChange {
  schedule: string;
  change: { repeat?: string; slip?: string; sliprand?: true };
  title: string;
}

export interface TemplateDiagnostic {
  /** Stable code, e.g. `psconfig/unknown-group` (documented in the table of checks in docs/checks.md). */
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  start: number;
  end: number;
  tags?: DiagnosticTag[];
  data?: DiagnosticData;
}

export function diag(
  code: DiagnosticCode,
  severity: Severity,
  message: string,
  start: number,
  end: number,
  extra?: Pick<TemplateDiagnostic, 'tags' | 'data'>,
): TemplateDiagnostic {
  return { code, severity, message, start, end, ...extra };
}
