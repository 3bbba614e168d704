// Renders the Marketplace / Open VSX icon: media/icon.svg → media/icon.png (256×256, transparent corners).
//   npm run icon        (after editing media/icon.svg; commit both files)
// The Marketplace refuses an SVG icon, so the PNG is committed; this script makes it again from the SVG with the
// browser the project already installs (Debian's chromium, driven by playwright-core; CHROMIUM overrides the path),
// so no image tool is added to the project.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SIZE = 256; // the Marketplace asks for at least 128×128; 256 stays sharp on high-density screens
const source = join(root, 'media/icon.svg');
const target = join(root, 'media/icon.png');

const svg = readFileSync(source, 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  // The SVG is drawn at SIZE×SIZE whatever its own width/height say.
  await page.setContent(
    `<!doctype html><html><body style="margin:0;background:transparent">` +
      `<div style="width:${SIZE}px;height:${SIZE}px">${svg.replace(/<svg\b/, `<svg style="width:${SIZE}px;height:${SIZE}px;display:block"`)}</div>` +
      `</body></html>`,
  );
  await page.locator('div').first().screenshot({ path: target, omitBackground: true });
  console.log(`render-icon: ${source} → ${target} (${SIZE}×${SIZE})`);
} finally {
  await browser.close();
}
