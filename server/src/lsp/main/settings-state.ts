// The client's settings as the server uses them: the current `psconfig` section (settings.ts maps it), whether it is
// known yet, and what is derived from it (the effective jq path, the severity overrides, the checks' settings).
import type { ServerSettings } from '../../../../common/protocol';
import type { JqConfig } from '../../template/jq/config';
import type { CheckSettings } from '../../template/diagnostics';
import { readSeverityOverrides, type SeverityOverrides } from '../../template/severity-overrides';
import type { Logger } from './guard';
import { effectiveJqPath, jqConfigOf, toServerSettings } from './settings';

export class SettingsState {
  private current: ServerSettings = {};
  private known!: () => void;
  private readonly known$ = new Promise<void>((resolve) => (this.known = resolve));
  /** psconfig.diagnostics.severity, read once per settings value (what cannot be used is logged once). */
  private severityRead: { source: unknown; overrides: SeverityOverrides } | undefined;

  constructor(
    private readonly log: Logger,
    /** The jq binary when the setting is empty (JQ_PATH, read by the entry point). */
    private readonly defaultJqPath: string | undefined,
  ) {}

  /** The client's section (nested or flat: settings.ts), as it was sent. */
  set(section: unknown): void {
    this.current = toServerSettings(section);
  }

  /** The settings are known (asked and answered, or given up on): what waits for them may start. */
  markKnown(): void {
    this.known();
  }

  /**
   * Resolves once the settings are known. Nothing that may run jq or fetch an include starts before: a restricted
   * workspace must never run jq in the moment between didOpen and the answer to workspace/configuration.
   */
  readonly ready = (): Promise<void> => this.known$;

  /** The settings in effect: the jq path already falls back to the server's default. */
  effective(): ServerSettings {
    return { ...this.current, jqPath: effectiveJqPath(this.current, this.defaultJqPath) };
  }

  /** What the jq runner needs (a restricted workspace runs none). */
  jq(): JqConfig {
    return jqConfigOf(this.effective());
  }

  /** What the settings change in the checks (`psconfig.archives.ipAllowedHosts`). */
  checks(): CheckSettings {
    return { ipAllowedHosts: this.current.ipAllowedHosts };
  }

  severityOverrides(): SeverityOverrides {
    const source = this.current.diagnosticsSeverity;
    if (this.severityRead && this.severityRead.source === source) return this.severityRead.overrides;
    const { overrides, problems } = readSeverityOverrides(source);
    for (const p of problems) this.log.warn(`psconfig.diagnostics.severity: ${p}`);
    this.severityRead = { source, overrides };
    return overrides;
  }

  /** The settings as they are (include scopes read the folders and trust from them). */
  get value(): ServerSettings {
    return this.current;
  }
}
