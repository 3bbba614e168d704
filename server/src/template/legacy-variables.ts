// The placeholders of the MeshConfig era and pSConfig's drafts, and the template variable that replaced each one.
// One table for everything that turns old text into pSConfig variables: the quick fixes (fixes/), the placeholder
// rule (rules/legacy-placeholders.ts) and the MeshConfig translator (meshconfig/).
//
// Where the mapping comes from (read, not guessed):
// - pSConfig's draft templates wrote `$group::N` for the N-th address of a task and `$requesting-agent` for the
//   measuring host. The commit that introduced `{% … %}` variables rewrote every one of them the same way:
//   perfsonar/psconfig e9bf684 "Updating with new template variable code and examples" (doc/example-*.json) and
//   perfsonar/perl-shared 9f0fd7a1 "Adding ability to fill-in template variables in various JSON objects"
//   (t/client-psconfig-*.t, 2017-12-02): `$group::0` → `{% address[0] %}`, `$group::1` → `{% address[1] %}`,
//   `$requesting-agent` → `{% scheduled_by_address %}`. No other `$` placeholder exists in either history.
// - The 4.x MeshConfig translator writes the same variables where MeshConfig had fixed roles
//   (perfsonar/perl-shared libperfsonar/lib/perfSONAR_PS/Client/PSConfig/Translators/MeshConfig/Config.pm):
//   `source`/`dest` → `{% address[0] %}`/`{% address[1] %}`, `source-node`/`dest-node` →
//   `{% pscheduler_address[0] %}`/`{% pscheduler_address[1] %}`, `flip` → `{% flip %}`, an esmond archive's
//   `measurement-agent` → `{% scheduled_by_address %}` (_convert_measurement_archives); meshconfig/parameters.ts
//   says which roles each test type has. Its MeshConfigTasks
//   sibling (…/Translators/MeshConfigTasks/Config.pm) replaces a `localhost`, `127.0.0.1` or `::1` archive host by
//   `{% scheduled_by_address %}` "since localhost causes problems when remote is lead".
//   The Python port (perfsonar/psconfig psconfig/client/psconfig/translators/mesh_config/config.py) is a stub whose
//   can_translate returns False: the Perl code is the only implementation.

/** A placeholder found in a string: where it is in the text scanned, what it says, and its pSConfig variable. */
export interface LegacyPlaceholder {
  /** Offsets of the placeholder in the scanned text (end exclusive). */
  start: number;
  end: number;
  /** The placeholder as written, e.g. `$group::1`. */
  text: string;
  /** The pSConfig variable that replaces it, e.g. `{% address[1] %}`. */
  variable: string;
}

/** `$group::N` (any decimal N) and `$requesting-agent`, not followed by a name character. */
const PLACEHOLDER = /\$(?:group::(\d+)|requesting-agent)(?![\w-])/g;

/** The variable for one placeholder text (`$group::0`, `$requesting-agent`), or undefined. */
export function variableForPlaceholder(placeholder: string): string | undefined {
  const m = /^\$(?:group::(\d+)|requesting-agent)$/.exec(placeholder);
  if (!m) return undefined;
  return m[1] !== undefined ? `{% address[${Number(m[1])}] %}` : '{% scheduled_by_address %}';
}

/** Every placeholder in `text[from, to)` (default: all of it). Cheap when there is none: one indexOf. */
export function findLegacyPlaceholders(text: string, from = 0, to = text.length): LegacyPlaceholder[] {
  const out: LegacyPlaceholder[] = [];
  if (text.indexOf('$', from) < 0) return out;
  const re = new RegExp(PLACEHOLDER.source, 'g');
  re.lastIndex = from;
  for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
    if (m.index + m[0].length > to) break;
    out.push({ start: m.index, end: m.index + m[0].length, text: m[0], variable: variableForPlaceholder(m[0])! });
  }
  return out;
}

/** A string with every placeholder replaced by its variable. */
export function replaceLegacyPlaceholders(s: string): string {
  return s.replace(new RegExp(PLACEHOLDER.source, 'g'), (p) => variableForPlaceholder(p)!);
}

/** The variables the MeshConfig translator writes for a test's fixed roles (Translators/MeshConfig/Config.pm). */
export const MESHCONFIG_ROLE_VARIABLES = {
  source: '{% address[0] %}',
  dest: '{% address[1] %}',
  'source-node': '{% pscheduler_address[0] %}',
  'dest-node': '{% pscheduler_address[1] %}',
  flip: '{% flip %}',
  'measurement-agent': '{% scheduled_by_address %}',
} as const;

/** Hosts that name the machine itself: an archive URL on one of them archives wherever the run happens
 *  (MeshConfigTasks/Config.pm tests exactly `localhost`, `127.0.0.1` and `::1`; we take all of 127/8 too). */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h === '::1' ||
    h === '0:0:0:0:0:0:0:1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
  );
}
