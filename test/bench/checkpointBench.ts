// Checkpoint cost: time and bytes per checkpoint for a 1-file change in a 10-file workspace and in a
// 10,000-file one (the two must be about equal: a checkpoint reads and writes the touched files
// only, never walks the workspace), then against the size of the change. Each checkpoint goes the
// way the extension's recorder goes: open the workspace view (a realpath per folder), place each
// touched path, read its bytes, record them (blob + manifest, fsync'd through writeFileDurably).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore } from '../../src/core/checkpoints/checkpointStore';
import { WorkspaceFiles } from '../../src/core/workspaceFiles/workspaceFiles';
import { median, percentile } from './chat/stats';

export interface CheckpointBenchOptions {
  readonly outDir: string;
  /** Checkpoints per case (default 20). */
  readonly rounds: number;
}

interface CaseResult {
  readonly name: string;
  readonly workspaceFiles: number;
  readonly changedFiles: number;
  readonly changeBytes: number;
  readonly msMedian: number;
  readonly msP90: number;
  readonly bytesWritten: number;
  readonly diskBytes: number;
}

function makeWorkspace(root: string, files: number): void {
  const filler = 'x'.repeat(1000) + '\n';
  for (let i = 0; i < files; i++) {
    const dir = join(root, `pkg${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file${i}.ts`), `// file ${i}\n${filler}`);
  }
}

/** Distinct per round and file (a repeated content would be deduplicated and measure nothing). */
function contentOf(bytes: number, round: number, index: number): Buffer {
  const content = Buffer.alloc(bytes, 0x61 + (index % 26));
  content.write(`round ${round} file ${index}\n`, 0);
  return content;
}

function diskUsage(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? diskUsage(path) : statSync(path).size;
  }
  return total;
}

interface BenchCase {
  /** One checkpoint (the reply's change is made first, outside the timing). */
  step(round: number): Promise<void>;
  result(): CaseResult;
  cleanup(): void;
}

function prepareCase(
  name: string,
  workspaceFiles: number,
  changes: ReadonlyArray<{ readonly path: string; readonly bytes: number }>,
  sameContent = false,
): BenchCase {
  const base = mkdtempSync(join(tmpdir(), 'ui-cpbench-'));
  const ws = join(base, 'ws');
  mkdirSync(ws);
  makeWorkspace(ws, workspaceFiles);
  for (const change of changes) mkdirSync(join(ws, change.path, '..'), { recursive: true });
  const storage = join(base, 'storage');
  const store = new CheckpointStore(storage);
  const times: number[] = [];
  let written = 0;
  return {
    async step(round) {
      if (!sameContent || round === 0)
        changes.forEach((change, index) => writeFileSync(join(ws, change.path), contentOf(change.bytes, round, index)));
      const started = process.hrtime.bigint();
      const files = await WorkspaceFiles.open({
        folders: [{ name: 'ws', path: ws, excludes: { 'files.exclude': [], 'search.exclude': [] } }],
      });
      const sources = [];
      for (const change of changes) {
        const placed = await files.place(join(ws, change.path));
        if (!placed.ok) throw new Error(placed.message);
        sources.push({
          folder: placed.folder.name,
          folderId: placed.folderId,
          path: placed.path,
          read: async () => new Uint8Array(await readFile(placed.absolute)),
        });
      }
      const result = await store.record({ conversationId: 'c-bench', turnId: `a-${round}` }, sources);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      written += result.bytesWritten;
    },
    result: () => ({
      name,
      workspaceFiles,
      changedFiles: changes.length,
      changeBytes: changes.reduce((n, c) => n + c.bytes, 0),
      msMedian: median(times),
      msP90: percentile(times, 90),
      bytesWritten: written / times.length,
      diskBytes: diskUsage(storage) / times.length,
    }),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** Runs the cases' checkpoints interleaved (round 1 of each, then round 2...), so a busy moment of the machine weighs on all alike. */
async function runCases(cases: readonly BenchCase[], rounds: number): Promise<CaseResult[]> {
  try {
    // The generated workspaces are flushed first: otherwise the first fsyncs of a checkpoint also
    // pay for writing back 10,000 new files, which is the bench's setup, not a checkpoint's cost.
    spawnSync('sync');
    for (let round = 0; round < rounds; round++) for (const c of cases) await c.step(round);
    return cases.map((c) => c.result());
  } finally {
    for (const c of cases) c.cleanup();
  }
}

const kb = (bytes: number): string => (bytes / 1024).toFixed(1);

export async function runCheckpointBench(options: CheckpointBenchOptions): Promise<string> {
  const rounds = options.rounds;
  const one = (bytes: number) => [{ path: 'src/changed.ts', bytes }];
  const results = [
    ...(await runCases(
      [
        prepareCase('1 file of 4 KB, small workspace', 10, one(4096)),
        prepareCase('1 file of 4 KB, large workspace', 10_000, one(4096)),
      ],
      rounds,
    )),
    ...(await runCases(
      [
        ...[64 * 1024, 1024 * 1024, 5 * 1024 * 1024].map((size) =>
          prepareCase(`1 file of ${kb(size)} KB`, 10, one(size)),
        ),
        prepareCase(
          '10 files of 4 KB',
          10,
          Array.from({ length: 10 }, (_, i) => ({ path: `src/many/f${i}.ts`, bytes: 4096 })),
        ),
        prepareCase(
          '1 file of 1024 KB, same content each reply (deduplicated: only the first writes it)',
          10,
          one(1024 * 1024),
          true,
        ),
      ],
      Math.min(rounds, 10),
    )),
  ];
  const [small, large] = results;
  const ratio = small && large ? large.msMedian / small.msMedian : NaN;
  const bytesEqual = small && large ? Math.abs(large.diskBytes - small.diskBytes) <= 64 : false;
  const table = [
    '# Checkpoints: cost per checkpoint',
    '',
    `Each checkpoint: open the workspace view, place the touched paths, read them, record (content-addressed blob + manifest, fsync'd). ${rounds} checkpoints per case (10 for the large files); times are median and p90 in ms; bytes are per checkpoint.`,
    '',
    '| case | workspace files | changed files | change (KB) | ms median | ms p90 | KB written | KB on disk |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.workspaceFiles} | ${r.changedFiles} | ${kb(r.changeBytes)} | ${r.msMedian.toFixed(2)} | ${r.msP90.toFixed(2)} | ${kb(r.bytesWritten)} | ${kb(r.diskBytes)} |`,
    ),
    '',
    `10,000-file vs 10-file workspace: time ×${ratio.toFixed(2)}, bytes ${bytesEqual ? 'equal' : 'DIFFERENT'} (goal: about equal: the cost follows the change, not the workspace) — ${ratio > 0.5 && ratio < 2 && bytesEqual ? 'met' : 'NOT met'}`,
  ].join('\n');
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(join(options.outDir, 'checkpoints.md'), `${table}\n`);
  return table;
}
