// Notes where pSConfig 5.x (Python) would not produce what the preview shows for a variable (psconfig.md §2.2).
// The preview follows Perl 4.x and the docs there; these notes tell the user what a 5.x agent would do instead.
import { VarScope, VarValue } from './template-vars';

export function noteVariableDivergence(name: string, v: VarValue, scope: VarScope, note: (m: string) => void): void {
  // Fast exit for the common cases (called for every variable of every combination).
  if (v.ok && (name.charCodeAt(0) !== 106 /* j */ || (v.raw.charCodeAt(0) === 34 && !v.raw.includes('\\')))) return;
  const idx = /^address\[(\d+)\]$/.exec(name);
  if (idx && Number(idx[1]) === scope.members.length) {
    note(
      `{% ${name} %}: index ${idx[1]} is out of range for ${scope.members.length}-address combinations. pSConfig 5.x checks \`index > len\` and stops the agent run with an IndexError; shown as Perl 4.x's clean per-task error.`,
    );
    return;
  }
  if (!v.ok && v.error.startsWith('Unrecognized template variable')) {
    note(
      `{% ${name} %} is not a template variable: pSConfig 5.x raises UnboundLocalError (the agent run stops); shown as Perl 4.x's clean per-task error.`,
    );
    return;
  }
  if (!v.ok || !name.startsWith('jq ')) return;
  const value: unknown = JSON.parse(v.raw);
  if (value === null) {
    note(`{% ${name} %} returned null: kept as JSON null (Perl 4.x); pSConfig 5.x substitutes an empty string "".`);
  } else if (typeof value !== 'string') {
    note(
      `{% ${name} %} returned a ${Array.isArray(value) ? 'array' : typeof value}: its JSON type is kept (Perl 4.x, docs). pSConfig 5.x only handles string results and stops the agent run with a TypeError.`,
    );
  } else if (/["\\]/.test(value)) {
    note(
      `{% ${name} %} returned a string containing a quote or backslash: escaped properly here (Perl 4.x); pSConfig 5.x splices it unescaped and fails with "Unable to create valid JSON after expanding template".`,
    );
  }
}
