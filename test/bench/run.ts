// `npm run bench`: runs the benchmarks and writes their tables to bench-results/ (gitignored).
//   --rounds=N   rounds per reader (default 7)
//   --tokens=N   content chunks per stream (default 100000)
import { join } from 'node:path';
import { runCoreBench } from './coreBench';

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
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
