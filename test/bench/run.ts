// `npm run bench`: runs the benchmarks and writes their tables to bench-results/ (gitignored).
//   --rounds=N   rounds per reader (default 7)
//   --tokens=N   content chunks per stream (default 100000)
//   --research-seconds=N   measured window per research polling case (default 20)
import { join } from 'node:path';
import { runCoreBench } from './coreBench';
import { runResearchBench } from './researchBench';

function flag(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg === undefined ? NaN : Number(arg.split('=')[1]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

async function main(): Promise<void> {
  const outDir = join(__dirname, '..', '..', '..', 'bench-results');
  const table = await runCoreBench({ rounds: flag('rounds', 7), tokens: flag('tokens', 100_000), outDir });
  console.log(table);
  console.log(`written to ${join(outDir, 'core.md')}`);
  const research = await runResearchBench({ seconds: flag('research-seconds', 20), outDir });
  console.log(research);
  console.log(`written to ${join(outDir, 'research.md')}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
