// The semantic index on disk (core/search/indexStorage): generations behind a pointer, the change
// log, crashes at every step of a save (the index is never lost: old or new, whole), hand-damaged
// files and stray temp files.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DELTA_FILE,
  IndexStorage,
  METADATA_FILE,
  POINTER_FILE,
  VECTORS_FILE,
  type SaveStep,
} from '../../../src/core/search/indexStorage';
import { SemanticIndex, type EmbedBatch } from '../../../src/core/search/semanticIndex';
import { folderSource, listFolder } from './folderIndex';

const MODEL = 'fake-embedding';
const DIMS = 8;

/** Deterministic vectors from the text, counting requests and inputs. */
function fakeEmbedder(): EmbedBatch & { requests: number; inputs: string[] } {
  const embed = Object.assign(
    async (texts: string[]) => {
      embed.requests++;
      embed.inputs.push(...texts);
      return texts.map((text) =>
        Array.from(createHash('sha256').update(text).digest().subarray(0, DIMS), (b) => b - 127.5),
      );
    },
    { requests: 0, inputs: [] as string[] },
  );
  return embed;
}

/** A comparable picture of an index: its files and, per chunk, where it is and its vector. */
function snapshot(index: SemanticIndex | undefined): unknown {
  if (!index) return undefined;
  const store = index.store;
  const rows = (store?.records ?? []).map(
    (r, i) =>
      `${r.file}:${r.startLine}-${r.endLine}:${r.hash ?? ''}:${Array.from(store?.vector(i) ?? [], (v) => v.toFixed(5)).join(',')}`,
  );
  return { model: index.model, files: [...index.files].sort(([a], [b]) => a.localeCompare(b)), rows: rows.sort() };
}

const text = (name: string, lines: number): string =>
  Array.from(
    { length: lines },
    (_, i) => `${name} line ${i} ${createHash('md5').update(`${name}${i}`).digest('hex')}`,
  ).join('\n') + '\n';

describe('core/search: the index on disk survives crashes and writes only what changed', function () {
  this.timeout(20_000);
  let root: string;
  let workspace: string;
  let dir: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'ui-index-store-'));
    workspace = join(root, 'ws');
    dir = join(root, 'index');
    mkdirSync(workspace);
    for (let f = 0; f < 12; f++) writeFileSync(join(workspace, `file${f}.ts`), text(`file${f}`, 90));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const update = (index: SemanticIndex, embed: EmbedBatch, scope?: string[]) =>
    index.update({
      current: listFolder(workspace),
      source: folderSource(workspace),
      embed,
      model: MODEL,
      ...(scope ? { scope: new Set(scope) } : {}),
    });

  async function built(): Promise<SemanticIndex> {
    const index = new SemanticIndex();
    await update(index, fakeEmbedder());
    return index;
  }

  const generationsOnDisk = (): string[] =>
    readdirSync(dir)
      .filter((n) => n.startsWith('gen-'))
      .sort();

  it('writes a generation and a pointer, loads it back, and removes the old generation after the pointer moves', async () => {
    const index = await built();
    const storage = new IndexStorage(dir);
    const first = await storage.save(index);
    assert.equal(first.kind, 'generation');
    assert.deepEqual(JSON.parse(readFileSync(join(dir, POINTER_FILE), 'utf8')), { version: 2, generation: 1 });
    assert.deepEqual(readdirSync(join(dir, 'gen-1')).sort(), [METADATA_FILE, VECTORS_FILE]);
    const loaded = await new IndexStorage(dir).load();
    assert.equal(loaded.from, 'generation');
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(snapshot(loaded.index), snapshot(index));
    assert.equal((await storage.save(index, { full: true })).generation, 2);
    assert.deepEqual(generationsOnDisk(), ['gen-2']);
    assert.equal((await storage.save(index)).kind, 'none', 'nothing changed: nothing written');
  });

  for (const step of ['vectors', 'metadata', 'pointer', 'cleanup'] as const) {
    it(`a crash before the "${step}" step of a full save leaves the ${step === 'cleanup' ? 'new' : 'old'} index whole`, async () => {
      const before = await built();
      await new IndexStorage(dir).save(before);
      const old = snapshot(before);
      writeFileSync(join(workspace, 'file3.ts'), text('rewritten', 60));
      rmSync(join(workspace, 'file7.ts'));
      await update(before, fakeEmbedder());
      const now = snapshot(before);
      const crashing = new IndexStorage(dir, {
        beforeStep: (s: SaveStep) => {
          if (s === step) throw new Error(`simulated crash before ${s}`);
        },
      });
      await crashing.load();
      await assert.rejects(crashing.save(before, { full: true }), /simulated crash/);
      const loaded = await new IndexStorage(dir).load();
      assert.ok(loaded.index, 'the index is never lost');
      assert.deepEqual(loaded.problems, [], 'a crash is not damage: nothing to repair, only leftovers to remove');
      assert.deepEqual(snapshot(loaded.index), step === 'cleanup' ? now : old);
      assert.equal(
        generationsOnDisk().length,
        1,
        `the orphan generation is removed on load: ${generationsOnDisk().join(', ')}`,
      );
    });
  }

  it('a crash while appending to the change log leaves the index as it was before that change', async () => {
    const index = await built();
    const storage = new IndexStorage(dir, { compactMinBytes: 10_000_000 });
    await storage.save(index);
    writeFileSync(join(workspace, 'file1.ts'), text('first edit', 30));
    await update(index, fakeEmbedder(), [join('file1.ts')]);
    assert.equal((await storage.save(index)).kind, 'delta');
    const afterFirst = snapshot(index);
    writeFileSync(join(workspace, 'file2.ts'), text('second edit', 30));
    await update(index, fakeEmbedder(), ['file2.ts']);
    const crashing = new IndexStorage(dir, {
      compactMinBytes: 10_000_000,
      beforeStep: () => Promise.reject(new Error('simulated crash')),
    });
    await crashing.load();
    await assert.rejects(crashing.save(index), /simulated crash/);
    assert.deepEqual(snapshot((await new IndexStorage(dir).load()).index), afterFirst);
  });

  it('a torn record at the end of the log (a crash mid-append) is dropped, and the next append writes over it', async () => {
    const index = await built();
    const storage = new IndexStorage(dir, { compactMinBytes: 10_000_000 });
    await storage.save(index);
    writeFileSync(join(workspace, 'file1.ts'), text('first edit', 30));
    await update(index, fakeEmbedder(), ['file1.ts']);
    await storage.save(index);
    const afterFirst = snapshot(index);
    writeFileSync(join(workspace, 'file2.ts'), text('second edit', 30));
    await update(index, fakeEmbedder(), ['file2.ts']);
    await storage.save(index);
    const log = join(dir, 'gen-1', DELTA_FILE);
    const whole = statSync(log).size;
    truncateSync(log, whole - 7); // the second record, torn

    const reopened = new IndexStorage(dir, { compactMinBytes: 10_000_000 });
    const loaded = await reopened.load();
    assert.deepEqual(snapshot(loaded.index), afterFirst);
    assert.match(loaded.problems.join('\n'), /torn record/);
    assert.ok(loaded.index);
    writeFileSync(join(workspace, 'file5.ts'), text('third edit', 20));
    await update(loaded.index, fakeEmbedder());
    assert.equal((await reopened.save(loaded.index)).kind, 'delta');
    const again = await new IndexStorage(dir).load();
    assert.deepEqual(again.problems, [], 'the torn tail was cut before the new record');
    assert.deepEqual(snapshot(again.index), snapshot(loaded.index));
  });

  it('damaged files by hand: a half-written orphan generation and stray temp files are removed; a pointed generation with wrong vectors falls back', async () => {
    const index = await built();
    await new IndexStorage(dir).save(index);
    mkdirSync(join(dir, 'gen-2'));
    writeFileSync(join(dir, 'gen-2', VECTORS_FILE), new Uint8Array(100)); // crashed before its metadata
    writeFileSync(join(dir, `${POINTER_FILE}.999999-abcdef.tmp`), '{"version":2,"generation":2}'); // pid 999999 is not running
    writeFileSync(join(dir, 'gen-1', `${VECTORS_FILE}.999999-abcdef.tmp`), 'partial');
    const loaded = await new IndexStorage(dir).load();
    assert.deepEqual(snapshot(loaded.index), snapshot(index));
    assert.deepEqual(readdirSync(dir).sort(), [POINTER_FILE, 'gen-1']);
    assert.deepEqual(readdirSync(join(dir, 'gen-1')).sort(), [METADATA_FILE, VECTORS_FILE]);

    // Damage (not a crash): the pointed generation's vectors no longer match its metadata.
    await new IndexStorage(dir).save(index, { full: true }); // gen-2
    mkdirSync(join(dir, 'gen-1'));
    for (const name of [VECTORS_FILE, METADATA_FILE])
      writeFileSync(join(dir, 'gen-1', name), readFileSync(join(dir, 'gen-2', name)));
    const metadata = JSON.parse(readFileSync(join(dir, 'gen-1', METADATA_FILE), 'utf8')) as { generation: number };
    writeFileSync(join(dir, 'gen-1', METADATA_FILE), JSON.stringify({ ...metadata, generation: 1 }));
    const vectors = readFileSync(join(dir, 'gen-2', VECTORS_FILE));
    vectors[vectors.length - 1] = (vectors[vectors.length - 1] ?? 0) ^ 0xff;
    writeFileSync(join(dir, 'gen-2', VECTORS_FILE), vectors);
    const fallback = await new IndexStorage(dir).load();
    assert.match(
      fallback.problems.join('\n'),
      /generation 2 is unusable \(the vectors file does not match its metadata \(hash\)\)/,
    );
    assert.deepEqual(snapshot(fallback.index), snapshot(index));
    assert.deepEqual(
      JSON.parse(readFileSync(join(dir, POINTER_FILE), 'utf8')),
      { version: 2, generation: 1 },
      'the pointer now names the good one',
    );

    writeFileSync(join(dir, 'gen-1', VECTORS_FILE), vectors.subarray(0, 40));
    const none = await new IndexStorage(dir).load();
    assert.equal(none.index, undefined, 'nothing whole left: undefined (rebuild), not garbage');
    assert.match(none.problems.join('\n'), /48 bytes|bytes, its metadata says/);
  });

  it('a generation removed under it (the user emptied the folder) makes the next save write a whole new one', async () => {
    const index = await built();
    const storage = new IndexStorage(dir);
    await storage.save(index);
    rmSync(dir, { recursive: true });
    writeFileSync(join(workspace, 'file1.ts'), text('edit', 20));
    await update(index, fakeEmbedder(), ['file1.ts']);
    assert.equal((await storage.save(index)).kind, 'generation');
    assert.deepEqual(snapshot((await new IndexStorage(dir).load()).index), snapshot(index));
  });

  it("an edit re-embeds only the chunks whose text changed and appends about that file's bytes; the log is folded in past its share", async () => {
    for (let f = 0; f < 12; f++) writeFileSync(join(workspace, `file${f}.ts`), text(`file${f}`, 400));
    const index = await built();
    const storage = new IndexStorage(dir, { compactAt: 0.3, compactMinBytes: 0 });
    const full = await storage.save(index);
    const lines = text('file4', 400).split('\n');
    lines[200] = 'an edited line in the middle';
    writeFileSync(join(workspace, 'file4.ts'), lines.join('\n'));
    const embed = fakeEmbedder();
    const report = await update(index, embed, ['file4.ts']);
    const chunksOfFile = index.files.get('file4.ts')?.chunks ?? 0;
    assert.ok(
      report.embeddedChunks >= 1 && report.embeddedChunks <= 2,
      `the one or two (overlapping) chunks holding line 200: ${report.embeddedChunks}`,
    );
    assert.ok(chunksOfFile > 10);
    assert.equal(report.reusedChunks, chunksOfFile - report.embeddedChunks, 'every other chunk kept its vector');
    assert.equal(embed.requests, 1);
    assert.ok(
      embed.inputs.every((t) => t.includes('an edited line')),
      'only chunks holding the edit were sent',
    );
    const delta = await storage.save(index);
    assert.equal(delta.kind, 'delta');
    assert.ok(
      delta.bytesWritten * 8 < full.bytesWritten,
      `one file of 12: ${delta.bytesWritten} bytes vs ${full.bytesWritten}`,
    );
    assert.deepEqual(snapshot((await new IndexStorage(dir).load()).index), snapshot(index));

    // Deleting a file appends its removal only.
    rmSync(join(workspace, 'file9.ts'));
    await update(index, fakeEmbedder(), ['file9.ts']);
    const removal = await storage.save(index);
    assert.equal(removal.kind, 'delta');
    assert.ok(removal.bytesWritten < 200, `a removal is small: ${removal.bytesWritten}`);
    assert.equal((await new IndexStorage(dir).load()).index?.files.has('file9.ts'), false);

    // Rewriting files one by one: once the log passes 30% of the generation it is folded into a new one.
    const kinds: string[] = [];
    for (let f = 0; f < 6; f++) {
      writeFileSync(join(workspace, `file${f}.ts`), text(`renamed${f}`, 400));
      await update(index, fakeEmbedder(), [`file${f}.ts`]);
      kinds.push((await storage.save(index)).kind);
    }
    assert.ok(kinds.includes('generation'), kinds.join(','));
    assert.equal(kinds[0], 'delta');
    assert.deepEqual(generationsOnDisk(), [`gen-${storage.currentGeneration}`]);
    assert.deepEqual(snapshot((await new IndexStorage(dir).load()).index), snapshot(index));
    assert.equal(
      existsSync(join(dir, `gen-${storage.currentGeneration}`, DELTA_FILE)),
      kinds[kinds.length - 1] === 'delta',
    );
  });
});
