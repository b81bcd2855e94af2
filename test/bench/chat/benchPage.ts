// The Node side of one benchmark page: loads it, sends host messages into it the way VS Code
// does (fire and forget, in order), and converts page times to this process's clock.
import type { BrowserContext, Page } from 'playwright-core';
import type { HostToChatMessage } from '../../../src/shared/chatProtocol';
import type { PageKind } from './pageServer';
import type { BenchPage } from './pageScripts';

/** Page and Node clocks are both wall-clock based, but may differ a little: measured, not assumed. */
const CALIBRATION_ROUNDS = 25;

export const nodeClock = (): number => performance.timeOrigin + performance.now();

export class BenchPageDriver {
  /** page clock - node clock, in ms. */
  private offset = 0;
  private inFlight: Promise<unknown>[] = [];

  private constructor(
    readonly page: Page,
    readonly kind: PageKind,
  ) {}

  static async open(context: BrowserContext, serverUrl: string, kind: PageKind): Promise<BenchPageDriver> {
    const page = await context.newPage();
    const driver = new BenchPageDriver(page, kind);
    await driver.load(serverUrl);
    return driver;
  }

  /** (Re)loads the page: a fresh document, as when VS Code shows the webview. */
  async load(serverUrl: string): Promise<void> {
    const errors: string[] = [];
    const onError = (error: Error): void => void errors.push(error.message);
    this.page.on('pageerror', onError);
    await this.page.goto(`${serverUrl}/${this.kind}`, { waitUntil: 'load', timeout: 30_000 });
    await this.until(
      () => this.page.evaluate(() => window.__bench !== undefined),
      10_000,
      'never installed its harness',
    );
    this.page.off('pageerror', onError);
    if (errors.length) throw new Error(`the ${this.kind} page failed: ${errors.join('; ')}`);
    if (this.kind === 'chat') {
      const posted = await this.page.evaluate(() => window.__bench?.posted() ?? []);
      if (!posted.some((m) => (m as { type?: string }).type === 'ready'))
        throw new Error('the chat page did not post `ready`');
    }
    await this.calibrate();
  }

  /** Offset from the round trip with the least delay (its midpoint is the best estimate). */
  private async calibrate(): Promise<void> {
    let best = { rtt: Infinity, offset: 0 };
    for (let i = 0; i < CALIBRATION_ROUNDS; i++) {
      const before = nodeClock();
      const pageTime = await this.page.evaluate(() => (window.__bench as BenchPage).clock());
      const after = nodeClock();
      if (after - before < best.rtt) best = { rtt: after - before, offset: pageTime - (before + after) / 2 };
    }
    this.offset = best.offset;
  }

  toNodeTime(pageTime: number): number {
    return pageTime - this.offset;
  }

  /** Like webview.postMessage: not awaited by the sender; the CDP session keeps the order. */
  post(message: HostToChatMessage, pieceEnds: readonly number[] = []): void {
    this.inFlight.push(
      this.page.evaluate(([m, ends]) => (window.__bench as BenchPage).deliver(m, ends), [message, pieceEnds] as const),
    );
  }

  async settled(): Promise<void> {
    const pending = this.inFlight;
    this.inFlight = [];
    await Promise.all(pending);
  }

  /** Waits until `selector` matches (the renderer handled the messages that create it) and counts its text. */
  async watch(selector: string, timeoutMs = 5000): Promise<void> {
    await this.settled();
    await this.until(
      () => this.page.evaluate((s) => (window.__bench as BenchPage).watch(s), selector),
      timeoutMs,
      `never showed ${selector}`,
    );
  }

  /** Polls with plain evaluations (waitForFunction may compile its predicate in the page, which the CSP forbids). */
  async until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`the ${this.kind} page ${what} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async close(): Promise<void> {
    await this.page.close();
  }
}
