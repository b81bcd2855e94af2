import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { readManifest, REPO_ROOT } from './manifest';

// The README and docs/ are read on GitHub (relative links), in VS Code's extension page and on the
// Marketplace (one page: scripts/marketplaceReadme.mjs). A link that leads nowhere in any of them
// fails here.

const LINK = /(!?)\[((?:[^\]\\]|\\.)*)\]\(([^)\s]+)\)/g;
const DOC_PAGES = readdirSync(join(REPO_ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const PAGES = ['README.md', ...DOC_PAGES];

interface Link {
  page: string;
  image: boolean;
  target: string;
}

function read(path: string): string {
  return readFileSync(join(REPO_ROOT, path), 'utf8');
}

/** Markdown outside fenced code blocks (a fence may show link-like text). */
function prose(text: string): string {
  return text.replace(/^(```+|~~~+)[^\n]*\n[\s\S]*?^\1\s*$/gm, '');
}

function links(page: string, text = read(page)): Link[] {
  return [...prose(text).matchAll(LINK)].map((m) => ({ page, image: m[1] === '!', target: m[3] ?? '' }));
}

function headings(text: string): string[] {
  return [...prose(text).matchAll(/^#{1,6} (.+)$/gm)].map((m) => (m[1] ?? '').trim());
}

/** The anchor GitHub, the Marketplace and VS Code (marked's GFM heading ids) give a heading of plain words. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function marketplaceReadme(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ui-readme-'));
  try {
    const out = join(dir, 'README.md');
    const result = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'marketplaceReadme.mjs'), out], {
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    return readFileSync(out, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('README and docs links', () => {
  it('lead to files that exist and headings that exist, on GitHub', () => {
    for (const page of PAGES) {
      for (const { target } of links(page)) {
        if (/^(https:|mailto:)/.test(target)) continue;
        assert.doesNotMatch(target, /^[a-z]+:/i, `${page}: ${target} is https or relative`);
        const [file = '', anchor] = target.split('#');
        const resolved = file === '' ? page : posix.normalize(posix.join(posix.dirname(page), file));
        assert.ok(existsSync(join(REPO_ROOT, resolved)), `${page}: ${target} leads to ${resolved}, which exists`);
        if (anchor !== undefined)
          assert.ok(
            headings(read(resolved)).map(slug).includes(anchor),
            `${page}: ${target} names a heading of ${resolved}`,
          );
      }
    }
  });

  it('from the README go to docs pages, pictures in media/ or https only (what the package carries)', () => {
    for (const { image, target } of links('README.md')) {
      if (/^(https:|#)/.test(target)) continue;
      if (image)
        assert.match(
          target,
          /^media\/screenshots\/[\w-]+\.jpg$/,
          `${target}: a README picture is a screenshot the .vsix carries`,
        );
      else
        assert.match(
          target,
          /^docs\/[\w-]+\.md(#[\w-]+)?$/,
          `${target}: a README link is a docs page (CONTRIBUTING.md is not in the package: name it as text)`,
        );
    }
  });

  it('reach every docs page from the README', () => {
    const linked = new Set(links('README.md').map((l) => l.target.replace(/#.*/, '')));
    assert.deepEqual(
      DOC_PAGES.filter((page) => !linked.has(page)),
      [],
    );
  });

  it('have headings of plain words, each anchor unique across the README and docs', () => {
    // Every renderer agrees on the anchor of letters, digits, spaces and hyphens (punctuation is
    // dropped by one and escaped by another), and the Marketplace's one page holds them all.
    const seen = new Map<string, string>();
    for (const page of PAGES) {
      for (const heading of headings(read(page))) {
        assert.match(heading, /^[A-Za-z0-9 -]+$/, `${page}: "${heading}" is plain words`);
        const anchor = slug(heading);
        assert.ok(
          !seen.has(anchor),
          `${page}: "${heading}" has the anchor #${anchor} of a heading in ${seen.get(anchor)}`,
        );
        seen.set(anchor, page);
      }
    }
  });

  it('all work on the Marketplace page: one page whose links are anchors in it, https or packaged pictures', () => {
    const page = marketplaceReadme();
    const anchors = new Set(headings(page).map(slug));
    for (const { image, target } of links('marketplace', page)) {
      if (/^(https:|mailto:)/.test(target)) continue;
      if (image) {
        assert.match(target, /^media\/screenshots\/[\w-]+\.jpg$/, `${target}: a picture the .vsix carries`);
        assert.ok(existsSync(join(REPO_ROOT, target)), `${target} exists`);
      } else {
        assert.match(target, /^#/, `${target}: an anchor in the page (the Marketplace cannot open a relative link)`);
        assert.ok(anchors.has(target.slice(1)), `${target} names a heading of the page`);
      }
    }
    for (const docPage of DOC_PAGES)
      assert.ok(page.includes(read(docPage).split('\n')[0] ?? ''), `${docPage} is in the page`);
  });

  it('are packaged from the one page: npm run package hands vsce the Marketplace README', () => {
    const scripts = readManifest<{ scripts: Record<string, string> }>().scripts;
    assert.match(
      scripts.package ?? '',
      /node scripts\/marketplaceReadme\.mjs && vsce package .*--readme-path dist-vsix\/README\.md/,
    );
  });
});
