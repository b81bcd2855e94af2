// CONTRIBUTING.md's layout picture is where a contributor learns where things live: it must name
// every folder under src/, so a folder added without a line there fails here, not in review.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from './manifest';

function layoutPicture(): string {
  const text = readFileSync(join(REPO_ROOT, 'CONTRIBUTING.md'), 'utf8');
  const section = text.slice(text.indexOf('\n## Layout'));
  const start = section.indexOf('```\n');
  const end = section.indexOf('\n```', start + 4);
  assert.ok(start >= 0 && end > start, 'CONTRIBUTING.md has a "## Layout" section with its picture in a code block');
  return section.slice(start + 4, end);
}

function foldersUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [join(dir, entry.name), ...foldersUnder(join(dir, entry.name))]);
}

describe("CONTRIBUTING.md's layout picture", () => {
  it('names every folder under src/ (as "name/")', () => {
    const picture = layoutPicture();
    const src = join(REPO_ROOT, 'src');
    const missing = foldersUnder(src)
      .map((folder) => relative(src, folder).split('\\').join('/'))
      .filter((folder) => !picture.includes(`${folder.split('/').pop() ?? folder}/`));
    assert.deepEqual(missing, [], 'folders the layout picture does not name');
  });

  it('names only top-level folders of src/ that exist', () => {
    const picture = layoutPicture();
    const named = [...picture.matchAll(/^src\/(\w+)\//gm)].map((match) => match[1]);
    const present = readdirSync(join(REPO_ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    assert.deepEqual([...named].sort(), [...present].sort());
  });
});
