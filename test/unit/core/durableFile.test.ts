import * as assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeStrayTempFiles, writeFileDurably } from '../../../src/core/storage/durableFile';

describe('writeFileDurably', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'durable-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('creates the folder, replaces the old content and leaves no temp file behind', async () => {
    const target = join(folder, 'deeper', 'state.json');
    await writeFileDurably(target, 'first');
    const stamp = await writeFileDurably(target, new TextEncoder().encode('second, longer'));
    assert.equal(await readFile(target, 'utf8'), 'second, longer');
    const info = await stat(target);
    assert.deepEqual(stamp, { mtimeMs: info.mtimeMs, size: info.size });
    assert.deepEqual(await readdir(join(folder, 'deeper')), ['state.json']);
  });

  it('keeps the old file when the write fails, and removes its temp file', async () => {
    const target = join(folder, 'state.json');
    await writeFileDurably(target, 'kept');
    await assert.rejects(writeFileDurably(target, 42 as unknown as string));
    assert.equal(await readFile(target, 'utf8'), 'kept');
    assert.deepEqual(await readdir(folder), ['state.json']);
  });

  it("removes a dead writer's temp file but never a live one's", async () => {
    const dead = 'a.json.999999999-0123456789ab.tmp';
    const live = `a.json.${process.pid}-0123456789ab.tmp`;
    await writeFile(join(folder, dead), 'x');
    await writeFile(join(folder, live), 'y');
    await writeFile(join(folder, 'other.tmp'), 'z');
    assert.deepEqual(await removeStrayTempFiles(folder), []);
    assert.deepEqual((await readdir(folder)).sort(), [live, 'other.tmp'].sort());
  });
});
