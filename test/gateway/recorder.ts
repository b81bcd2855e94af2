import type { IncomingHttpHeaders } from 'node:http';

export type CloseOutcome = 'completed' | 'aborted';

/** What the gateway saw of one request; tests read it to prove what a client sent and when it hung up. */
export interface RequestRecord {
  /** 1, 2, 3... in arrival order. */
  readonly seq: number;
  /** Also sent back as the `x-request-id` response header. */
  readonly requestId: string;
  readonly method: string;
  /** Path without the query string, e.g. `/api/v1/chat/completions`. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Lower-case names; `authorization` and `x-api-key` values are redacted. */
  readonly headers: Readonly<Record<string, string>>;
  readonly startedAt: number;
  /** Which header carried the key, once authenticated. */
  authHeader?: 'authorization' | 'x-api-key';
  /** The status line sent, once sent. */
  status?: number;
  /** The parsed JSON body; for multipart, the text fields plus `file: {filename, contentType, bytes}`. */
  body?: unknown;
  /** The fault spec that was applied to this request, if any (a spec past its `times` is not applied). */
  fault?: string;
  /** Response body bytes written (SSE framing included, HTTP chunk framing not). */
  bytesWritten: number;
  /**
   * Every body write, when it was handed to the socket: `bytes` is bytesWritten after it, `text`
   * the chunk (string writes only). Lets a test tell what a client had been sent by a given instant.
   */
  readonly writes: { readonly at: number; readonly bytes: number; readonly text?: string }[];
  /** True when fault injection (`cut-after`) destroyed the connection. */
  cutByFault: boolean;
  /** `hang-before-end`: the stream has sent all but its end and waits for the client to go. */
  hanging?: boolean;
  /** Set when the response finished or the connection closed early. */
  outcome?: CloseOutcome;
  /** When the response finished or the connection closed (Date.now(), like `startedAt`). */
  closedAt?: number;
  /** 'completed' when the whole response was handed to the socket; 'aborted' when the connection closed first. */
  readonly closed: Promise<CloseOutcome>;
}

const REDACTED = '[redacted]';

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (name === 'authorization') out[name] = /^bearer\s/i.test(text) ? `Bearer ${REDACTED}` : REDACTED;
    else if (name === 'x-api-key') out[name] = REDACTED;
    else out[name] = text;
  }
  return out;
}

type Waiter = { predicate: (record: RequestRecord) => boolean; resolve: (record: RequestRecord) => void };

/** The request log with a way to wait for a request that may not have arrived yet. */
export class RequestRecorder {
  private readonly list: RequestRecord[] = [];
  private readonly waiters = new Set<Waiter>();

  get all(): readonly RequestRecord[] {
    return this.list;
  }

  add(record: RequestRecord): void {
    this.list.push(record);
    if (this.list.length > 5000) this.list.splice(0, this.list.length - 5000); // a long benchmark run must not grow without bound
    this.notify(record);
  }

  /** Re-offers a record to waiters after its body, status or outcome became known. */
  notify(record: RequestRecord): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.predicate(record)) {
        this.waiters.delete(waiter);
        waiter.resolve(record);
      }
    }
  }

  clear(): void {
    this.list.length = 0;
  }

  /** Resolves with the first recorded (or future) request matching `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: (record: RequestRecord) => boolean, timeoutMs: number): Promise<RequestRecord> {
    const existing = this.list.find(predicate);
    if (existing) return Promise.resolve(existing);
    return new Promise<RequestRecord>((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve: (record) => {
          clearTimeout(timer);
          resolve(record);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no matching request within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }
}
