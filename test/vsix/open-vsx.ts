// What Open VSX checks when a .vsix is published, reproduced offline so a test can run them before anyone publishes.
//
// ovsx 1.1.1 (the publishing client, npm `ovsx`) does little itself before uploading: for open-vsx.org it asks for a
// licence (`lib/check-license.js`: a `license` field or a LICENSE/LICENCE file; `validateManifest` in `lib/util.js`:
// publisher, name and version present), packages with vsce's `createVSIX` when given a folder (the same checks as
// `vsce package`), and reads `extension/package.json` from the .vsix (`lib/zip.js`). Everything else happens on the
// server, from eclipse/openvsx `server/src/main/java/org/eclipse/openvsx/`:
// - `ExtensionProcessor.java` reads the metadata from `extension.vsixmanifest` (Identity, DisplayName, Description,
//   Tags, Categories, the Links/Branding properties) and `license`/`markdown`/`qna` from package.json, and refuses a
//   package whose License, Icon, Details or Changelog asset is missing, or any zip entry with an extra field
//   (`isPotentiallyMalicious`);
// - `ExtensionValidator.java` (`validateExtensionName`, `validateNamespace`, `validateMetadata`) checks the rules
//   written out below;
// - `publish/PublishExtensionVersionHandler.java` then needs the namespace to exist, the token to may publish to it
//   and the version not to be published yet: those need the registry and are not checked here.
import type { ZipEntry } from './zip';

/** Java's `\w` is ASCII: `[\w\-\+\$~]+`, matched whole. */
const NAME = /^[A-Za-z0-9_\-+$~]+$/;
const VERSION_CHARS = /^[\p{L}\p{Nd}$+\-,.:;_]$/u;
/** `Character.getType` CONTROL, FORMAT, UNASSIGNED, PRIVATE_USE, LINE_SEPARATOR, PARAGRAPH_SEPARATOR. */
const BAD_CHAR = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Zl}\p{Zp}]/u;
const DEFAULT_SIZE = 255;

/** The vsixmanifest values Open VSX reads, from vsce's XML (attributes and text, entities decoded). */
export interface VsixMetadata {
  name: string;
  namespace: string;
  version: string;
  targetPlatform: string;
  displayName: string;
  description: string;
  tags: string[];
  categories: string[];
  properties: Map<string, string>;
  license?: string;
  icon?: string;
  assets: Map<string, string>;
}

function decode(xml: string): string {
  return xml
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function attr(tag: string, name: string): string {
  return decode(new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1] ?? '');
}

function element(xml: string, name: string): string | undefined {
  const m = new RegExp(`<${name}\\b[^>]*>([\\s\\S]*?)</${name}>`).exec(xml);
  return m ? decode(m[1]) : undefined;
}

const list = (s: string | undefined): string[] => (s ? s.split(',') : []);

export function readVsixManifest(xml: string): VsixMetadata {
  const identity = /<Identity\b[^>]*>/.exec(xml)?.[0];
  if (!identity) throw new Error('extension.vsixmanifest has no <Identity>');
  const properties = new Map<string, string>();
  for (const m of xml.matchAll(/<Property\b[^>]*>/g)) properties.set(attr(m[0], 'Id'), attr(m[0], 'Value'));
  const assets = new Map<string, string>();
  for (const m of xml.matchAll(/<Asset\b[^>]*>/g)) assets.set(attr(m[0], 'Type'), attr(m[0], 'Path'));
  return {
    name: attr(identity, 'Id'),
    namespace: attr(identity, 'Publisher'),
    version: attr(identity, 'Version'),
    targetPlatform: attr(identity, 'TargetPlatform') || 'universal',
    displayName: element(xml, 'DisplayName') ?? '',
    description: element(xml, 'Description') ?? '',
    tags: list(element(xml, 'Tags')),
    categories: list(element(xml, 'Categories')),
    properties,
    license: element(xml, 'License'),
    icon: element(xml, 'Icon'),
    assets,
  };
}

/** Java's `new URL(v).getHost()` is not empty (after a `git+` prefix); `java.net.URL` knows only these schemes. */
function isUrl(value: string): boolean {
  const v = value.startsWith('git+') && value.length > 4 ? value.slice(4) : value;
  try {
    const u = new URL(v);
    return ['http:', 'https:', 'ftp:', 'file:', 'jar:'].includes(u.protocol) && u.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Every issue Open VSX would report for this package (empty: it would be accepted, given a namespace and a token).
 * `manifest` is the package.json inside the .vsix, `entries` the zip's entries, `folderFiles` the names of the files at
 * the top of the extension's folder (where ovsx looks for a licence file).
 */
export function openVsxIssues(
  meta: VsixMetadata,
  manifest: Record<string, unknown>,
  entries: ZipEntry[],
  folderFiles: string[],
): string[] {
  const issues: string[] = [];
  const names = new Set(entries.map((e) => e.name));
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

  // ovsx's client side.
  for (const f of ['publisher', 'name', 'version'])
    if (!manifest[f]) issues.push(`ovsx: missing required field '${f}' in package.json`);
  const licenceFile = folderFiles.some((f) => /^licen[cs]e(\.md|\.txt)?$/i.test(f));
  if (!manifest.license && !licenceFile) issues.push('ovsx: no license field and no LICENSE file in the folder');

  // ExtensionValidator.validateNamespace / validateExtensionName.
  for (const [what, v] of [
    ['namespace', meta.namespace],
    ['extension name', meta.name],
  ] as const) {
    if (!v || v === '-') issues.push(`${what} must not be empty`);
    else if (!NAME.test(v)) issues.push(`invalid ${what}: ${v}`);
    else if (v.length > DEFAULT_SIZE) issues.push(`the ${what} exceeds ${DEFAULT_SIZE} characters`);
  }

  // ExtensionValidator.validateMetadata.
  if (!meta.version) issues.push('version must not be empty');
  else if (['latest', 'pre-release', 'reviews'].includes(meta.version))
    issues.push(`the version '${meta.version}' is reserved`);
  else {
    const bad = [...meta.version].find((c) => !VERSION_CHARS.test(c));
    if (bad !== undefined) issues.push(`invalid character '${bad}' in version ${meta.version}`);
  }
  if (meta.targetPlatform !== 'universal') issues.push(`target platform ${meta.targetPlatform} not checked here`);
  const chars = (field: string, values: (string | undefined)[]): void => {
    for (const v of values)
      if (v !== undefined && BAD_CHAR.test(v)) issues.push(`invalid character in '${field}': ${v}`);
  };
  const size = (field: string, values: (string | undefined)[], limit: number): void => {
    for (const v of values)
      if (v !== undefined && v.length > limit) issues.push(`'${field}' exceeds ${limit} characters`);
  };
  const url = (field: string, v: string | undefined): void => {
    if (v) {
      if (!isUrl(v)) issues.push(`invalid URL in '${field}': ${v}`);
      size(field, [v], DEFAULT_SIZE);
    }
  };
  const license = str(manifest.license);
  chars('displayName', [meta.displayName]);
  size('displayName', [meta.displayName], DEFAULT_SIZE);
  chars('description', [meta.description]);
  size('description', [meta.description], 2048);
  chars('categories', meta.categories);
  size('categories', meta.categories, DEFAULT_SIZE);
  chars('keywords', meta.tags);
  size('keywords', meta.tags, DEFAULT_SIZE);
  chars('license', [license]);
  size('license', [license], DEFAULT_SIZE);
  url('homepage', meta.properties.get('Microsoft.VisualStudio.Services.Links.Learn'));
  url('repository', meta.properties.get('Microsoft.VisualStudio.Services.Links.Source'));
  url('bugs', meta.properties.get('Microsoft.VisualStudio.Services.Links.Support'));
  const markdown = str(manifest.markdown);
  if (markdown && !['github', 'standard'].includes(markdown)) issues.push(`invalid 'markdown': ${markdown}`);
  const color = meta.properties.get('Microsoft.VisualStudio.Services.Branding.Color');
  chars('galleryBanner.color', [color]);
  size('galleryBanner.color', [color], 16);
  const theme = meta.properties.get('Microsoft.VisualStudio.Services.Branding.Theme');
  if (theme && !['dark', 'light'].includes(theme)) issues.push(`invalid 'galleryBanner.theme': ${theme}`);
  const qna = str(manifest.qna);
  if (qna && !['marketplace', 'false'].includes(qna) && !isUrl(qna)) issues.push(`invalid 'qna': ${qna}`);

  // ExtensionProcessor: the files it stores must be where the manifest says, and no entry may carry extra fields.
  if (!names.has('extension/package.json')) issues.push('entry not found: extension/package.json');
  if (!names.has('extension.vsixmanifest')) issues.push('entry not found: extension.vsixmanifest');
  const licensePath = meta.license || meta.assets.get('Microsoft.VisualStudio.Services.Content.License');
  const iconPath =
    meta.assets.get('Microsoft.VisualStudio.Services.Icons.Default') ??
    (str(manifest.icon) ? `extension/${str(manifest.icon)!.replace(/\\/g, '/')}` : undefined);
  for (const [what, p] of [
    ['license', licensePath],
    ['icon', iconPath],
    ['readme', meta.assets.get('Microsoft.VisualStudio.Services.Content.Details')],
    ['changelog', meta.assets.get('Microsoft.VisualStudio.Services.Content.Changelog')],
  ] as const)
    if (p && !names.has(p)) issues.push(`entry not found: ${p} (${what})`);
  for (const e of entries)
    if (e.centralExtra || e.localExtra) issues.push(`zip entry with extra fields (refused as harmful): ${e.name}`);
  return issues;
}
