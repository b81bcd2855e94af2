// Loss-window bench: how much of a streamed reply a crash loses. A child process streams a reply
// from the local gateway through the extension's own reply runner, store and journal; it is
// SIGKILLed at seeded random instants, a fresh store recovers the conversation, and the loss is
// how long before the kill the gateway had written the first text the recovered reply lacks
// (0 when nothing the gateway had sent is missing). Goal: at most 1000 ms.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AssistantTurn } from '../../src/shared/chatModel';
import { ConversationStore } from '../../src/core/chat/history/conversationStore';
import { JOURNAL_FLUSH_MS } from '../../src/core/chat/history/replyJournal';
import { startGateway } from '../gateway/index';
import type { RequestRecord } from '../gateway/recorder';
import { sentContentBefore } from '../gateway/sentText';
import { seededRandom } from '../harness/seededRandom';
import { median } from './chat/stats';

export interface DurabilityBenchOptions {
  readonly outDir: string;
  /** Kills (default 8). */
  readonly kills: number;
  readonly seed: number;
}

const MODEL = 'sim-bench/stream-bench::delay-chunks=10';

/** When the gateway wrote the first content the recovered reply lacks (undefined: nothing missing). */
function firstMissingAt(record: RequestRecord, recovered: string, killedAt: number): number | undefined {
  for (const write of record.writes) {
    if (write.at > killedAt) return undefined;
    if (sentContentBefore(record, write.at).length > recovered.length) return write.at;
  }
  return undefined;
}

export async function runDurabilityBench(options: DurabilityBenchOptions): Promise<string> {
  const gateway = await startGateway();
  const random = seededRandom(options.seed);
  const root = mkdtempSync(join(tmpdir(), 'ui-durability-'));
  const losses: number[] = [];
  const rows: string[] = [];
  try {
    for (let run = 0; run < options.kills; run++) {
      const folder = join(root, `run${run}`);
      mkdirSync(folder, { recursive: true });
      const child = spawn(
        process.execPath,
        [join(__dirname, 'chat', 'journalKillChild.js'), folder, 'c1', gateway.url, gateway.apiKey, MODEL],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('streaming') && resolve());
        child.once('exit', (code) => reject(new Error(`the writer exited before streaming (${code})`)));
      });
      const wait = 300 + Math.floor(random() * 4_000);
      await new Promise((resolve) => setTimeout(resolve, wait));
      child.kill('SIGKILL');
      const killedAt = Date.now();
      await exited;
      const record = gateway.requests.at(-1);
      if (!record) throw new Error('the gateway saw no request');
      await new ConversationStore(folder).list(); // recovery, as the history does on start
      const recovered =
        ((await new ConversationStore(folder).load('c1'))?.turns[1] as AssistantTurn | undefined)?.content ?? '';
      const sent = sentContentBefore(record, killedAt);
      const missingAt = firstMissingAt(record, recovered, killedAt);
      const loss = missingAt === undefined ? 0 : killedAt - missingAt;
      losses.push(loss);
      rows.push(`| ${run + 1} | ${wait} | ${sent.length} | ${recovered.length} | ${loss} |`);
    }
  } finally {
    await gateway.stop();
    rmSync(root, { recursive: true, force: true });
  }
  const table = [
    '# Loss window after a crash (SIGKILL mid-stream)',
    '',
    `A child streams \`${MODEL}\` (one event every 10 ms) through runReply into the store's reply journal (flushed and fsync'd every ${JOURNAL_FLUSH_MS} ms), and is killed at seeded random instants (seed ${options.seed}). Loss = how long before the kill the gateway had written the first text the recovered reply lacks. Goal: at most 1000 ms.`,
    '',
    '| kill | ms after first text | characters sent by the kill | characters recovered | loss (ms) |',
    '| ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `loss: max ${Math.max(...losses)} ms, median ${median(losses)} ms over ${losses.length} kills: goal (at most 1000 ms) ${Math.max(...losses) <= 1000 ? 'met' : 'NOT met'}`,
  ].join('\n');
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(join(options.outDir, 'durability.md'), `${table}\n`);
  return table;
}
