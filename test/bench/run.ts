// `npm run bench`: runs the benchmarks and writes their tables to bench-results/ (gitignored).
//   npm run bench -- [core] [research] [chat] [markdown] [search] [durability] [checkpoints] [bundles] [activation] [completions]   only these parts (default: all)
//   --rounds=N   rounds per reader (default 7)
//   --tokens=N   content chunks per stream (default 100000)
//   --research-seconds=N   measured window per research polling case (default 20)
//   --chat-kb=N  size of the streamed chat reply in KB (default 100)
//   --chat-rate=N  pieces per second the gateway streams to the chat (default 500)
//   --chat-messages=N  messages of the opened conversation (default 500)
//   --search-files=N  generated files to index (default 2000); --search-vectors=N  vectors for query latency (default 100000)
//   --chat-open-runs=N  fresh page loads per side for the open measurement (default 3)
//   --chat-markdown  also stream a realistic markdown reply of the same size into the chat (diagnostic, ~45 s)
//   --chat-hostile=TEXT  only the hostile inputs whose name holds TEXT (default: all 20, ~10 min); --chat-hostile=none: none
//   --chat-hostile-frames=N  frames a hostile input streams in at most (default 1500)
//   markdown: the hostile-markdown unit checks in jsdom at full size (the unit tests run them just past the budgets), ~2 min
//   --checkpoint-rounds=N  checkpoints per case of the checkpoints part (default 20)
//   --activation-launches=N  fresh VS Code launches for the activation part (default 5)
//   --completions-chars=N  characters the seeded typist retypes (default 1200); --completions-samples=N  prompts timed against the raw stream (default 12); --completions-seed=N (default 1)
//   --durability-kills=N  SIGKILLs of a streaming reply for the loss window (default 8); --durability-seed=N (default 1)
// The chat part drives Chromium: on a shared machine run it under the heavy-tests lock, e.g.
//   flock /tmp/unified-heavy-tests.lock node out/test/bench/run.js chat
import { join } from 'node:path';
import { runActivationBench } from './activationBench';
import { runBundleBench } from './bundleBench';
import { runChatBench } from './chatBench';
import { runCheckpointBench } from './checkpointBench';
import { runCompletionsBench } from './completionsBench';
import { runCoreBench } from './coreBench';
import { runDurabilityBench } from './durabilityBench';
import { runMarkdownBench } from './markdownBench';
import { runResearchBench } from './researchBench';
import { runSearchBench } from './searchBench';

function flag(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg === undefined ? NaN : Number(arg.split('=')[1]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

const PARTS = [
  'core',
  'research',
  'chat',
  'markdown',
  'search',
  'durability',
  'checkpoints',
  'bundles',
  'activation',
  'completions',
] as const;
type Part = (typeof PARTS)[number];

function selectedParts(): Part[] {
  const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const unknown = named.filter((a) => !(PARTS as readonly string[]).includes(a));
  if (unknown.length) throw new Error(`unknown bench part(s): ${unknown.join(', ')} (known: ${PARTS.join(', ')})`);
  return named.length ? (named as Part[]) : [...PARTS];
}

async function main(): Promise<void> {
  const parts = selectedParts();
  const outDir = join(__dirname, '..', '..', '..', 'bench-results');
  if (parts.includes('core')) {
    const table = await runCoreBench({ rounds: flag('rounds', 7), tokens: flag('tokens', 100_000), outDir });
    console.log(table);
    console.log(`written to ${join(outDir, 'core.md')}`);
  }
  if (parts.includes('research')) {
    const research = await runResearchBench({ seconds: flag('research-seconds', 20), outDir });
    console.log(research);
    console.log(`written to ${join(outDir, 'research.md')}`);
  }
  if (parts.includes('chat')) {
    const hostile = process.argv.find((a) => a.startsWith('--chat-hostile='))?.slice('--chat-hostile='.length) ?? '';
    const chat = await runChatBench({
      outDir,
      kb: flag('chat-kb', 100),
      rate: flag('chat-rate', 500),
      messages: flag('chat-messages', 500),
      openRuns: flag('chat-open-runs', 3),
      markdownReplay: process.argv.includes('--chat-markdown'),
      hostile: hostile === 'none' ? undefined : hostile,
      hostileFrames: flag('chat-hostile-frames', 1500),
    });
    console.log(chat);
    console.log(`written to ${join(outDir, 'chat.md')}`);
  }
  if (parts.includes('markdown')) {
    console.log(await runMarkdownBench({ outDir, scale: 0.25 }));
    console.log(`written to ${join(outDir, 'markdown.md')}`);
  }
  if (parts.includes('search')) {
    const search = await runSearchBench({
      outDir,
      files: flag('search-files', 2000),
      vectors: flag('search-vectors', 100_000),
    });
    console.log(search);
    console.log(`written to ${join(outDir, 'search.md')}`);
  }
  if (parts.includes('durability')) {
    const durability = await runDurabilityBench({
      outDir,
      kills: flag('durability-kills', 8),
      seed: flag('durability-seed', 1),
    });
    console.log(durability);
    console.log(`written to ${join(outDir, 'durability.md')}`);
  }
  if (parts.includes('checkpoints')) {
    const checkpoints = await runCheckpointBench({ outDir, rounds: flag('checkpoint-rounds', 20) });
    console.log(checkpoints);
    console.log(`written to ${join(outDir, 'checkpoints.md')}`);
  }
  if (parts.includes('bundles')) {
    console.log(await runBundleBench({ outDir }));
    console.log(`written to ${join(outDir, 'bundles.md')}`);
  }
  if (parts.includes('completions')) {
    console.log(
      await runCompletionsBench({
        outDir,
        chars: flag('completions-chars', 1200),
        samples: flag('completions-samples', 12),
        seed: flag('completions-seed', 1),
      }),
    );
    console.log(`written to ${join(outDir, 'completions.md')}`);
  }
  if (parts.includes('activation')) {
    console.log(await runActivationBench({ outDir, launches: flag('activation-launches', 5) }));
    console.log(`written to ${join(outDir, 'activation.md')}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
