import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../harness/testHost';
import { README_SCREENSHOT_MAX_BYTES, README_SCREENSHOTS } from '../ui/readmeScreenshots';

interface Manifest {
  icon?: string;
  galleryBanner?: { color?: string; theme?: string };
  keywords?: string[];
  repository?: unknown;
  scripts: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
const SCREENSHOTS = join(REPO_ROOT, 'media', 'screenshots');

/** Width and height from a PNG's header: the signature, then the IHDR chunk (length, type, width, height). */
function pngSize(bytes: Buffer): { width: number; height: number } {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR', 'the IHDR chunk comes first');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Width and height from a JPEG's start-of-frame segment (baseline or progressive). */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  assert.ok(bytes[0] === 0xff && bytes[1] === 0xd8, 'a JPEG start-of-image marker');
  for (let at = 2; at + 9 < bytes.length;) {
    if (bytes[at] !== 0xff) throw new Error(`no JPEG marker at byte ${at}`);
    const marker = bytes[at + 1] ?? 0;
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc2)
      return { width: bytes.readUInt16BE(at + 7), height: bytes.readUInt16BE(at + 5) };
    at += 2 + length;
  }
  throw new Error('no JPEG start-of-frame segment');
}

describe('marketplace assets', () => {
  it('has a 128 x 128 PNG icon', () => {
    assert.equal(manifest.icon, 'media/icon.png');
    assert.deepEqual(pngSize(readFileSync(join(REPO_ROOT, 'media', 'icon.png'))), { width: 128, height: 128 });
    assert.ok(
      existsSync(join(REPO_ROOT, 'media', 'icon.svg')),
      "the icon's source (scripts/renderIcon.mjs renders it)",
    );
  });

  it('has a gallery banner and at most 30 distinct keywords', () => {
    assert.match(manifest.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(manifest.galleryBanner?.theme ?? ''), 'the banner theme is dark or light');
    const keywords = manifest.keywords ?? [];
    assert.ok(
      keywords.length > 0 && keywords.length <= 30,
      `${keywords.length} keywords (the marketplace takes 30 at most)`,
    );
    assert.equal(new Set(keywords.map((k) => k.toLowerCase())).size, keywords.length, 'no keyword twice');
  });

  it("packages without a repository URL, without a prompt or a failure over the README's relative images", () => {
    // There is no public repository yet: a made-up URL would send marketplace visitors nowhere.
    // When there is one, add "repository" and drop both flags (vsce then rewrites the README's
    // relative images to that repository's URLs).
    if (manifest.repository !== undefined) return;
    assert.match(manifest.scripts.package ?? '', /vsce package .*--allow-missing-repository/);
    assert.match(manifest.scripts.package ?? '', /vsce package .*--no-rewrite-relative-links/);
  });

  it('has every README screenshot, each a small JPEG made by the UI tests', () => {
    for (const file of Object.values(README_SCREENSHOTS)) {
      const path = join(SCREENSHOTS, file);
      assert.ok(
        existsSync(path),
        `media/screenshots/${file} exists (UNIFIED_INFERENCE_UPDATE_SCREENSHOTS=1 with the UI tests writes it)`,
      );
      const size = statSync(path).size;
      assert.ok(
        size <= README_SCREENSHOT_MAX_BYTES,
        `media/screenshots/${file} is ${size} bytes (cap ${README_SCREENSHOT_MAX_BYTES})`,
      );
      const { width, height } = jpegSize(readFileSync(path));
      assert.ok(width >= 800 && height >= 600, `media/screenshots/${file} is ${width} x ${height}: big enough to read`);
    }
    const listed = new Set<string>(Object.values(README_SCREENSHOTS));
    assert.deepEqual(
      readdirSync(SCREENSHOTS).filter((name) => !listed.has(name)),
      [],
      'no screenshot that no UI test makes',
    );
  });

  it('has every image the README shows from media/', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)[^)]*\)|<img[^>]+src="([^"]+)"/g)].map(
      (m) => m[1] ?? m[2] ?? '',
    );
    for (const image of images.filter((src) => src.startsWith('media/')))
      assert.ok(existsSync(join(REPO_ROOT, image)), `${image} (in README.md) exists`);
  });
});
