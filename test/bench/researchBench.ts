// Research polling benchmark: the real ResearchPollLoop with the real client against the local
// gateway, while 1, 10 and 100 jobs are in progress for the whole window (they run for an hour).
// The gateway counts the list requests it receives. The point: the loop sends one list request
// per tick for all jobs, so the requests per minute must not grow with the number of jobs, and
// the requests per job-minute must fall as 1/N.
//
// The schedule is compressed 15x so a window of 20 s plays 5 minutes of a real job's life (young
// phase at the minimum interval, then the growth toward the maximum): min 200 ms (real 3 s), max
// 2 s (real 30 s), young for 4 s (real 60 s), growth constant 4 s (real 60 s).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayClient } from '../../src/core/transport/client';
import { ResearchPollLoop } from '../../src/core/research/pollLoop';
import type { PollOptions } from '../../src/core/research/pollSchedule';
import type { ResearchJob } from '../../src/core/types/account';
import { inProgressQuery } from '../../src/core/research/researchQuery';
import { startGateway } from '../gateway/index';

export interface ResearchBenchOptions {
  /** Measured window per case, in seconds of (compressed) wall time. */
  seconds: number;
  outDir: string;
}

interface CaseResult {
  jobs: number;
  lists: number;
  otherRequests: number;
  windowMs: number;
  medianListMs: number;
  stillInProgress: number;
}

const COMPRESSION = 15;
const SCHEDULE: PollOptions = {
  minIntervalMs: 200,
  maxIntervalMs: 2000,
  maxErrorBackoffMs: 8000,
  youngAgeMs: 4000,
  growthMs: 4000,
};
const JOB_COUNTS = [1, 10, 100] as const;
// "Does not grow": the 10- and 100-job cases may send at most this much more than the 1-job case
// (the schedule is the same; only slower list answers move the ticks a little).
const GROWTH_TOLERANCE = 1.1;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function runCase(jobs: number, seconds: number): Promise<CaseResult> {
  // A fresh gateway per case: its job list holds exactly this case's jobs. queuedMs 1 s so the
  // window sees both in-progress statuses; runningMs 1 h so nothing finishes during it.
  const gateway = await startGateway({ research: { queuedMs: 1000, runningMs: 3_600_000 } });
  const loop: { current?: ResearchPollLoop } = {};
  try {
    const client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey, maxRetries: 0 });
    const created: ResearchJob[] = [];
    for (let i = 0; i < jobs; i += 20) {
      const batch = Array.from({ length: Math.min(20, jobs - i) }, (_, k) =>
        client.research.create(`bench polling job ${i + k + 1}`),
      );
      for (const job of await Promise.all(batch))
        created.push({ id: job.id, status: job.status, createdAt: new Date().toISOString() });
    }
    gateway.clearRequests();

    const listMs: number[] = [];
    let lastListed: readonly ResearchJob[] = [];
    const errors: unknown[] = [];
    // What the extension sends (the same query builder): the unfinished jobs only (every status
    // that is not terminal, so unknown ones too), newest first, one page of 100, in one request.
    const query = inProgressQuery();
    loop.current = new ResearchPollLoop({
      poll: async (signal) => {
        const started = performance.now();
        const list = await client.research.list(query, { signal, maxRetries: 0 });
        listMs.push(performance.now() - started);
        lastListed = list.docs;
        return list.docs;
      },
      schedule: SCHEDULE,
      onError: (error) => errors.push(error),
    });
    const started = performance.now();
    loop.current.start(created);
    await sleep(seconds * 1000);
    loop.current.dispose();
    const windowMs = performance.now() - started;
    if (errors.length > 0) throw new Error(`${jobs} jobs: ${errors.length} polls failed, first: ${String(errors[0])}`);

    const records = gateway.requests;
    const lists = records.filter((r) => r.method === 'GET' && r.path === '/api/v1/research').length;
    return {
      jobs,
      lists,
      otherRequests: records.length - lists,
      windowMs,
      medianListMs: median(listMs),
      stillInProgress: lastListed.length,
    };
  } finally {
    loop.current?.dispose();
    await gateway.stop();
  }
}

export async function runResearchBench(options: ResearchBenchOptions): Promise<string> {
  const results: CaseResult[] = [];
  for (const jobs of JOB_COUNTS) results.push(await runCase(jobs, options.seconds));

  const perMinute = (r: CaseResult): number => r.lists / (r.windowMs / 60_000);
  const realPerMinute = (r: CaseResult): number => r.lists / ((r.windowMs * COMPRESSION) / 60_000);
  const base = results[0] as CaseResult;
  const worst = results.reduce((a, b) => (perMinute(b) >= perMinute(a) ? b : a));
  const growth = perMinute(worst) / perMinute(base);
  const flat =
    growth <= GROWTH_TOLERANCE && results.every((r) => r.otherRequests === 0 && r.stillInProgress === r.jobs);

  const lines = [
    '# Research polling benchmark: list requests while jobs are in progress',
    '',
    `ResearchPollLoop + GatewayClient against the local gateway (in-process), one case per job count, jobs running for the whole window (queued 1 s, then running for an hour). Window ${options.seconds} s per case. Node ${process.version}, ${new Date().toISOString()}.`,
    `**Compressed schedule (${COMPRESSION}x):** minIntervalMs ${SCHEDULE.minIntervalMs}, maxIntervalMs ${SCHEDULE.maxIntervalMs}, youngAgeMs ${SCHEDULE.youngAgeMs}, growthMs ${SCHEDULE.growthMs} (the shipped defaults are 3000 / 30000 / 60000 / 60000), so ${options.seconds} s here are ${((options.seconds * COMPRESSION) / 60).toFixed(0)} minutes of a real job's polling. The "real schedule" columns divide by the compression.`,
    `Poll: one \`GET /research\` per tick for all jobs with \`where=${JSON.stringify(inProgressQuery().where)}\`, limit ${String(inProgressQuery().limit)}, sort ${String(inProgressQuery().sort)}: the query the Research view sends (\`inProgressQuery()\`). Requests counted by the gateway; "other" is any request that is not that list (per-job GETs would show there).`,
    '',
    '| jobs in progress | list requests | other requests | window s | requests / min (compressed) | requests / job-minute (compressed) | requests / min (real schedule) | requests / job-minute (real schedule) | median list ms | jobs listed at the end |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.jobs} | ${r.lists} | ${r.otherRequests} | ${(r.windowMs / 1000).toFixed(1)} | ${perMinute(r).toFixed(1)} | ${(perMinute(r) / r.jobs).toFixed(2)} | ${realPerMinute(r).toFixed(2)} | ${(realPerMinute(r) / r.jobs).toFixed(3)} | ${r.medianListMs.toFixed(1)} | ${r.stillInProgress} |`,
    ),
    '',
    `- **Total requests per minute ${flat ? 'do not grow' : 'GROW'} with the number of jobs**: ${worst.jobs} job${worst.jobs === 1 ? '' : 's'} ${perMinute(worst).toFixed(1)}/min vs 1 job ${perMinute(base).toFixed(1)}/min (ratio ${growth.toFixed(2)}, tolerance ${GROWTH_TOLERANCE}); no per-job requests: ${results.every((r) => r.otherRequests === 0) ? 'yes' : 'NO'}; every job still in progress at the end: ${results.every((r) => r.stillInProgress === r.jobs) ? 'yes' : 'NO'}. ${flat ? 'PASS' : 'FAIL'}`,
    '',
  ];
  const table = lines.join('\n');
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(join(options.outDir, 'research.md'), table);
  return table;
}
