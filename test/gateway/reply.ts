import type { ServerResponse } from 'node:http';
import type { FaultSpec } from './faults';
import { echoHeaders, echoJson, type KeyEcho } from './keyEcho';
import { writeHugeJson } from './hugeBody';
import type { RequestRecord } from './recorder';

/**
 * The one way routes write a response. It applies the byte-level faults (`cut-after`,
 * `delay-chunks` for whole bodies), keeps the request record current, and tells a route that
 * is still producing (a stream, a delay) that the client has gone away.
 */
export class Reply {
  /** The fault in force for this request, once resolved (undefined: none). */
  fault: FaultSpec | undefined;
  /** Set by the `echo-key` fault: the key to repeat in headers and (escaped as asked) JSON. */
  echo: KeyEcho | undefined;
  private written = 0;
  private cut = false;
  private closed = false;
  private readonly closeWaiters = new Set<() => void>();

  constructor(
    private readonly res: ServerResponse,
    private readonly record: RequestRecord,
    /** Re-offers the record to waiters (waitForRequest) after a change they may wait on. */
    private readonly recordChanged: () => void = () => undefined,
  ) {
    res.on('close', () => {
      this.closed = true;
      for (const wake of this.closeWaiters) wake();
      this.closeWaiters.clear();
    });
  }

  /** True once the connection closed or was cut: stop producing. */
  get gone(): boolean {
    return this.closed || this.cut || this.res.destroyed;
  }

  get headersSent(): boolean {
    return this.res.headersSent;
  }

  head(status: number, headers: Record<string, string | number>): void {
    if (this.gone) return; // the client left (e.g. during delay-headers): there is nobody to answer
    this.record.status = status;
    this.res.writeHead(status, {
      'x-request-id': this.record.requestId,
      ...headers,
      ...(this.echo ? echoHeaders(this.echo) : {}),
    });
  }

  /** Sends headers now (SSE): a client waiting for headers must not wait for the first event. */
  flushHeaders(): void {
    this.res.flushHeaders();
  }

  /** Waits `ms`, or less if the client goes away meanwhile. */
  sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.gone) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.closeWaiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.closeWaiters.add(wake);
    });
  }

  /** Resolves when the client has gone away (`hang-before-end`); the record says `hanging` meanwhile, for waitForRequest. */
  untilGone(): Promise<void> {
    if (this.gone) return Promise.resolve();
    this.record.hanging = true;
    this.recordChanged();
    return new Promise((resolve) => this.closeWaiters.add(resolve));
  }

  /** Writes body bytes, honouring `cut-after` and backpressure. Resolves false when the connection is gone. */
  async write(chunk: string | Uint8Array): Promise<boolean> {
    if (this.gone) return false;
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    const limit = this.fault?.cutAfterBytes;
    if (limit !== undefined && this.written + bytes.length >= limit) {
      bytes = bytes.subarray(0, Math.max(0, limit - this.written));
      this.cutConnection(bytes);
      return false;
    }
    this.written += bytes.length;
    this.record.bytesWritten = this.written;
    this.record.writes.push({
      at: Date.now(),
      bytes: this.written,
      ...(typeof chunk === 'string' ? { text: chunk } : {}),
    });
    if (this.res.write(bytes)) return !this.gone;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.closeWaiters.delete(done);
        resolve();
      };
      this.res.once('drain', done);
      this.closeWaiters.add(done);
    });
    return !this.gone;
  }

  end(): void {
    if (!this.gone) this.res.end();
  }

  /** A complete body with Content-Length (`delay-chunks` holds the body back once, after the headers). */
  async send(
    status: number,
    contentType: string,
    body: Uint8Array | string,
    headers: Record<string, string | number> = {},
  ): Promise<void> {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    this.head(status, { 'content-type': contentType, 'content-length': bytes.length, ...headers });
    const delay = this.fault?.delayChunksMs;
    if (delay) {
      this.flushHeaders();
      await this.sleep(delay);
    }
    if (await this.write(bytes)) this.end();
  }

  /** A JSON body; `malformed-chunk` on a 2xx answer sends only the first half of it (invalid JSON, complete HTTP). */
  json(status: number, value: unknown, headers: Record<string, string | number> = {}): Promise<void> {
    if (this.fault?.hugeBodyBytes !== undefined && status < 300)
      return writeHugeJson(this, status, value, this.fault.hugeBodyBytes, headers);
    let text = JSON.stringify(value);
    if (this.echo) text = echoJson(this.echo, text);
    if (this.fault?.malformedChunk && status < 300) text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
    return this.send(status, 'application/json; charset=utf-8', text, headers);
  }

  /** Writes the allowed prefix, then closes the socket the way a dropped connection would. */
  private cutConnection(prefix: Uint8Array): void {
    this.cut = true;
    this.record.cutByFault = true;
    this.written += prefix.length;
    this.record.bytesWritten = this.written;
    const socket = this.res.socket;
    if (!this.res.headersSent) this.res.flushHeaders();
    if (prefix.length) this.res.write(prefix);
    // end() sends what is buffered and then FIN; destroy() soon after in case the peer keeps it open.
    socket?.end();
    setTimeout(() => socket?.destroy(), 500).unref();
  }
}
