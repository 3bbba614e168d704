// The file a translation is written to, beside the MeshConfig file: `mesh.json` → `mesh.psconfig.json` (a name the
// extension opens as a template), else `mesh-translated.psconfig.json`, `mesh-translated-2.psconfig.json`, … — the
// first that `taken` does not refuse, so nothing existing is overwritten.

const MAX_TRIES = 100;

export function translationFileName(sourceName: string, taken: (name: string) => boolean): string | undefined {
  const stem = sourceName.replace(/(\.psconfig)?\.json$/i, '') || 'meshconfig';
  const candidates = [`${stem}.psconfig.json`, `${stem}-translated.psconfig.json`];
  for (let n = 2; n < MAX_TRIES; n++) candidates.push(`${stem}-translated-${n}.psconfig.json`);
  return candidates.find((c) => c !== sourceName && !taken(c));
}
