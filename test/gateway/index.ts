import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatewayState, Route } from './context';
import { CompletionFiles } from './completionFiles';
import { FaultCounter } from './faults';
import { ImageStore } from './imageStore';
import { QuotaBook } from './quota';
import { RequestRecorder, type RequestRecord } from './recorder';
import { ResearchStore } from './researchStore';
import { accountRoutes } from './routes/account';
import { chatRoutes } from './routes/chat';
import { embeddingsRoutes } from './routes/embeddings';
import { imagesRoutes } from './routes/images';
import { messagesRoutes } from './routes/messages';
import { rerankRoutes } from './routes/rerank';
import { researchRoutes } from './routes/research';
import { speechRoutes } from './routes/speech';
import { transcriptionRoutes } from './routes/transcriptions';
import { createListener } from './server';
import { hmacBase64 } from './text';

export type { RequestRecord } from './recorder';
export { FAULT_HEADER } from './faults';
export { BENCH_DEFAULT_TOKENS } from './chatSim';
export { CATALOG } from './catalog';
export { RESEARCH_FAILURE_WORD } from './researchStore';

/** The key `npm run gateway` prints and every test may use. It is not a secret: it only opens this simulator. */
export const DEMO_API_KEY = 'sim-local-demo-key';
/** How long a research job stays queued, then running, unless a test says otherwise. */
export const DEFAULT_RESEARCH_TIMINGS = { queuedMs: 3000, runningMs: 15000 } as const;
const DEFAULT_CREDITS_USD = 25;

export interface GatewayOptions {
  /** 0 (default): a free port. */
  readonly port?: number;
  /** Default 127.0.0.1: the simulator is never reachable from outside the machine. */
  readonly host?: string;
  /** Extra keys (or the demo key with other credits). Unlisted keys get a 401. */
  readonly keys?: Readonly<Record<string, { readonly credits?: number }>>;
  /** Credits of the demo key (USD), default 25. */
  readonly demoCredits?: number;
  /**
   * Research timings; defaults 3 s queued, 15 s running. `detailUnavailable`: GET /research/{id} is
   * always a 404. `now`: the clock job statuses are computed from (default Date.now): a test that
   * moves it walks a job through queued, running and done without waiting.
   */
  readonly research?: {
    readonly queuedMs?: number;
    readonly runningMs?: number;
    readonly detailUnavailable?: boolean;
    readonly now?: () => number;
  };
  /** Transcription upload limit in bytes, default 25 MB. */
  readonly maxUploadBytes?: number;
  /** Reject every chat request that carries `stream_options` with a 400 naming it. */
  readonly rejectStreamOptions?: boolean;
  /** How long image URLs stay valid, default one hour. */
  readonly imageUrlTtlMs?: number;
  /** Absolute folder of source files the completion model (`sim-openai/gpt-sim-complete`) continues; read lazily. */
  readonly completionFiles?: string;
}

type RequestPredicate = ((record: RequestRecord) => boolean) | string;

export interface LocalGateway {
  /** `http://127.0.0.1:<port>`, without `/api/v1`. */
  readonly url: string;
  /** `<url>/api/v1`. */
  readonly apiUrl: string;
  readonly port: number;
  /** The demo key. */
  readonly apiKey: string;
  /** Every request so far (the newest 5000), in arrival order. */
  readonly requests: readonly RequestRecord[];
  /**
   * The first request, already seen or still to come, matching `predicate` (a function, or a
   * path such as '/api/v1/chat/completions'). Await `record.closed` to learn whether the client
   * read the whole response ('completed') or closed the connection first ('aborted').
   */
  waitForRequest(predicate: RequestPredicate, timeoutMs?: number): Promise<RequestRecord>;
  clearRequests(): void;
  /** Current credits of a key, USD. */
  credits(key?: string): number;
  setCredits(key: string, usd: number): void;
  /** Forgets the `times=` counters, so the same fault spec fails again. */
  resetFaultCounters(): void;
  /** The signature this gateway gives a thinking text (to build valid or tampered thinking blocks in tests). */
  signThinking(thinking: string): string;
  /** false: `GET /research/{id}` answers 404 for every job (the list still gives their status); true (default) restores it. */
  setResearchDetailAvailable(available: boolean): void;
  /** Timings for research jobs created from now on, so one test can hold some jobs in each status. */
  setResearchTimings(timings: { queuedMs: number; runningMs: number }): void;
  /** The folder the completion model reads from now on (a workspace made after the gateway started). */
  setCompletionFiles(folder: string | undefined): void;
  stop(): Promise<void>;
}

const ROUTES: readonly Route[] = [
  ...chatRoutes,
  ...messagesRoutes,
  ...embeddingsRoutes,
  ...rerankRoutes,
  ...transcriptionRoutes,
  ...speechRoutes,
  ...imagesRoutes,
  ...researchRoutes,
  ...accountRoutes,
];

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Starts a local gateway. Stop it with `stop()` (which also drops open keep-alive and streaming connections). */
export async function startGateway(options: GatewayOptions = {}): Promise<LocalGateway> {
  const credits: Record<string, number> = { [DEMO_API_KEY]: options.demoCredits ?? DEFAULT_CREDITS_USD };
  for (const [key, value] of Object.entries(options.keys ?? {})) credits[key] = value.credits ?? DEFAULT_CREDITS_USD;
  const faults = new FaultCounter();
  const secret = randomBytes(32).toString('hex'); // per instance: a signature is only valid where it was issued
  const state: GatewayState = {
    secret,
    quota: new QuotaBook(credits),
    research: new ResearchStore(
      {
        queuedMs: options.research?.queuedMs ?? DEFAULT_RESEARCH_TIMINGS.queuedMs,
        runningMs: options.research?.runningMs ?? DEFAULT_RESEARCH_TIMINGS.runningMs,
      },
      options.research?.now,
    ),
    images: new ImageStore(options.imageUrlTtlMs ?? 3600_000),
    faults,
    settings: {
      maxUploadBytes: options.maxUploadBytes ?? 25 * 1024 * 1024,
      rejectStreamOptions: options.rejectStreamOptions ?? false,
      imageUrlTtlMs: options.imageUrlTtlMs ?? 3600_000,
    },
    completionFiles: new CompletionFiles(options.completionFiles),
    baseUrl: '',
  };
  state.research.detailUnavailable = options.research?.detailUnavailable ?? false;
  const recorder = new RequestRecorder();
  const server = createServer(createListener(ROUTES, state, recorder));
  const host = options.host ?? '127.0.0.1';
  const address = await listen(server, options.port ?? 0, host);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  state.baseUrl = url;
  let stopped: Promise<void> | undefined;
  return {
    url,
    apiUrl: `${url}/api/v1`,
    port: address.port,
    apiKey: DEMO_API_KEY,
    get requests() {
      return recorder.all;
    },
    waitForRequest(predicate, timeoutMs = 10_000) {
      const test = typeof predicate === 'string' ? (r: RequestRecord) => r.path === predicate : predicate;
      return recorder.waitFor(test, timeoutMs);
    },
    clearRequests: () => recorder.clear(),
    credits: (key = DEMO_API_KEY) => state.quota.get(key).credits,
    setCredits: (key, usd) => state.quota.set(key, usd),
    resetFaultCounters: () => faults.reset(),
    signThinking: (thinking) => hmacBase64(secret, thinking),
    setResearchDetailAvailable: (available) => {
      state.research.detailUnavailable = !available;
    },
    setResearchTimings: (timings) => state.research.setTimings(timings),
    setCompletionFiles: (folder) => state.completionFiles.setFolder(folder),
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
