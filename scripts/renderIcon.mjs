// Renders the marketplace icon: media/icon.svg into media/icon.png (128 x 128, transparent
// corners), with the same playwright-core and Debian Chromium the UI tests use, so the PNG can be
// made again from its source. Run: node scripts/renderIcon.mjs (then commit both files).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const SIZE = 128;
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const svg = readFileSync(join(repo, 'media', 'icon.svg'), 'utf8');
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';

const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  await page.setContent(
    `<html><body style="margin:0;background:transparent"><img id="icon" src="${src}" width="${SIZE}" height="${SIZE}" style="display:block"></body></html>`,
  );
  await page.locator('#icon').evaluate((img) => img.decode());
  const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: SIZE, height: SIZE } });
  writeFileSync(join(repo, 'media', 'icon.png'), png);
  console.log(`media/icon.png: ${SIZE} x ${SIZE}, ${png.length} bytes`);
} finally {
  await browser.close();
}
