// Glob and .gitignore matching against long paths: ordinary patterns beside the ones built to
// make a backtracking matcher run for ages (the old regular expressions took more than 25 s, or
// never finished, on the first adversarial rows at 5,000 characters). Linear matching shows as a
// 10k / 1k ratio near 10. Part of `npm run bench -- core`.
import { globMachine } from '../../src/core/workspaceFiles/glob';
import { parseGitignoreLine } from '../../src/core/workspaceFiles/gitignore';

interface Case {
  readonly name: string;
  readonly pattern: string;
  readonly kind: 'glob' | '.gitignore';
  readonly path: (length: number) => string;
}

function randomAb(length: number): string {
  let seed = 7;
  return Array.from({ length }, () => ((seed = (seed * 48271) % 2147483647) % 2 ? 'a' : 'b')).join('');
}

const CASES: readonly Case[] = [
  { name: 'ordinary', pattern: '**/*.ts', kind: 'glob', path: (n) => `src/${'a'.repeat(n)}.js` },
  { name: 'ordinary', pattern: 'node_modules/', kind: '.gitignore', path: (n) => `src/${'a'.repeat(n)}` },
  { name: 'ordinary', pattern: '**/.env*', kind: 'glob', path: (n) => `${'ab/'.repeat(n / 3)}x` },
  // Each adversarial path starts and ends as a match must (so the literal ends do not turn it
  // away) and fails, or matches, only at its end: the whole path is read.
  { name: 'many stars', pattern: `${'*a'.repeat(11)}*b`, kind: 'glob', path: (n) => `${'a'.repeat(n)}/b` },
  {
    name: 'many stars (26 chars)',
    pattern: `x${'*a'.repeat(12)}!`,
    kind: '.gitignore',
    path: (n) => `deep/x${'a'.repeat(n)}/a!`,
  },
  { name: '60 x **/', pattern: `${'**/'.repeat(60)}x`, kind: 'glob', path: (n) => `${'a/'.repeat(n / 2)}x` },
  { name: '{a,b} x 300', pattern: `${'{a,b}'.repeat(300)}*`, kind: 'glob', path: (n) => `${'ab'.repeat(n / 2)}/` },
  { name: 'exponential DFA', pattern: `*a${'?'.repeat(12)}`, kind: 'glob', path: randomAb },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Microseconds per match: the median of 5 batches, each repeating the match for at least 20 ms. */
function timeMatch(matches: (path: string) => boolean, path: string): number {
  matches(path); // warm-up: builds the kept state sets, as a walk's first paths do
  const batches: number[] = [];
  for (let batch = 0; batch < 5; batch++) {
    const started = process.hrtime.bigint();
    let runs = 0;
    let elapsed = 0;
    while (runs < 3 || elapsed < 20) {
      matches(path);
      runs++;
      elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    }
    batches.push((elapsed * 1000) / runs);
  }
  return median(batches);
}

function matcherOf(item: Case): { matches: (path: string) => boolean; steps: () => string } {
  if (item.kind === '.gitignore') {
    const rule = parseGitignoreLine(item.pattern);
    if (!rule) throw new Error(`${item.pattern} is not a rule`);
    return { matches: rule.matches, steps: () => '-' };
  }
  const machine = globMachine(item.pattern);
  if (!machine) throw new Error(`${item.pattern} was refused`);
  return { matches: (path) => machine.matches(path), steps: () => machine.lastSteps.toLocaleString('en-US') };
}

export function runGlobBench(): string {
  const rows = CASES.map((item) => {
    const matcher = matcherOf(item);
    const short = timeMatch(matcher.matches, item.path(1_000));
    const long = timeMatch(matcher.matches, item.path(10_000));
    const steps = matcher.steps(); // of the last match: the 10k path
    const pattern = item.pattern.length > 28 ? `${item.pattern.slice(0, 25)}...` : item.pattern;
    return `| ${item.name} | ${item.kind} \`${pattern}\` (${item.pattern.length} chars) | ${short.toFixed(1)} | ${long.toFixed(1)} | ${(long / short).toFixed(1)} | ${steps} |`;
  });
  return [
    '## Glob and .gitignore matching (linear, no backtracking)',
    '',
    "Microseconds per match of one path of about 1,000 and 10,000 characters (median of 5 batches of at least 20 ms). Steps: the matcher's own count for the 10k path.",
    '',
    '| case | pattern | 1k path us | 10k path us | 10k / 1k | steps (10k) |',
    '|---|---|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
}
