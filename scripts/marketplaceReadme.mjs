// The README the Marketplace and VS Code's extension page show: README.md followed by every docs/
// page, as one self-contained document. Both pages open only https links (VS Code's extension
// page ignores a relative link) and the package has no repository whose URLs vsce could write in,
// so each link to a docs page becomes a link to that page's heading in the same document, and a
// picture's path is made relative to the package's root (the .vsix carries media/screenshots/).
// Headings are letters, digits, spaces and hyphens only, so every renderer's slug is the same, and
// unique across the pages (readmeLinks.test.ts checks both), so an anchor keeps its target here.
//
//   node scripts/marketplaceReadme.mjs [out]   (default: dist-vsix/README.md, what `npm run package` passes to vsce)
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A heading's anchor as GitHub, the Marketplace and VS Code make it for plain words. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

/** Markdown links and pictures: `[text](target)` / `![alt](target)`, the target without spaces. */
const LINK = /(!?)\[((?:[^\]\\]|\\.)*)\]\(([^)\s]+)\)/g;

/** The pages, README first, then docs/ in the order the README links them, then the rest by name. */
function pages() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const linked = [...readme.matchAll(LINK)]
    .map((m) => (m[3] ?? '').replace(/#.*/, ''))
    .filter((t) => /^docs\/[\w-]+\.md$/.test(t));
  const all = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)
    .sort();
  const order = ['README.md', ...new Set([...linked.filter((p) => all.includes(p)), ...all])];
  return order.map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}

/** The one document: every link to a page points at its heading, pictures at the package's root. */
function marketplaceReadme() {
  const list = pages();
  const titles = new Map(list.map(({ path, text }) => [path, /^# (.+)$/m.exec(text)?.[1] ?? path]));
  const parts = list.map(({ path, text }) =>
    text
      .replace(LINK, (whole, image, label, target) => {
        if (/^(https:|mailto:|#)/.test(target)) return whole;
        const [file = '', anchor] = target.split('#');
        const resolved = posix.normalize(posix.join(posix.dirname(path), file));
        if (image) return `![${label}](${resolved})`;
        if (!titles.has(resolved))
          throw new Error(`${path}: the link ${target} leads to ${resolved}, which is not README.md or a docs/ page`);
        return `[${label}](#${anchor ?? slug(titles.get(resolved) ?? '')})`;
      })
      .trimEnd(),
  );
  return `${parts.join('\n\n---\n\n')}\n`;
}

const out = resolve(root, process.argv[2] ?? join('dist-vsix', 'README.md'));
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, marketplaceReadme());
