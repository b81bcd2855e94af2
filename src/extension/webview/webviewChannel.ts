// The one way the host talks with a webview (chat, image gallery, audio player). A page is untrusted
// and late: its messages are checked against the protocol's guard before anyone sees them, and
// nothing is posted before its script says `ready` (a hidden view's script has not run; what is
// posted earlier is lost). Every outgoing message passes the API key redaction here, the last step
// before the page, so no owner can forget it.
import type * as vscode from 'vscode';
import { errorMessage } from '../../shared/errorMessage';
import type { WebviewMessage } from '../../shared/webviewProtocol';
import type { Log } from '../log';

/** The part of `vscode.Webview` the channel uses (a fake one in unit tests). */
export interface ChannelWebview {
  postMessage(message: unknown): Thenable<boolean>;
  readonly onDidReceiveMessage: vscode.Event<unknown>;
}

export interface WebviewChannelOptions<FromPage extends WebviewMessage, ToPage extends WebviewMessage> {
  /** How the page is named in the log ("chat", "image gallery"). */
  readonly name: string;
  /** The protocol's guard (src/shared): a message it refuses is dropped. */
  readonly parse: (raw: unknown) => FromPage | undefined;
  /** Every valid message, `ready` included (the owner answers it with its whole state, if it keeps one). */
  readonly receive: (message: FromPage) => void | Promise<void>;
  /** Takes known keys out of a message (gateway text may echo them). */
  readonly redact: <T>(value: T) => T;
  readonly log: Pick<Log, 'warn' | 'error'>;
  /**
   * Which messages posted before `ready` still go out after the owner answered it, in the order
   * posted. Owners that send their whole state on `ready` keep only what that state does not cover;
   * by default every one is kept.
   */
  readonly keepAfterReady?: (message: ToPage) => boolean;
  /** Told when handling a message failed (after the log line), e.g. to show it. */
  readonly onError?: (error: unknown) => void;
}

export class WebviewChannel<FromPage extends WebviewMessage, ToPage extends WebviewMessage>
  implements vscode.Disposable
{
  private ready = false;
  private disposed = false;
  private readonly queued: ToPage[] = [];
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly webview: ChannelWebview,
    private readonly options: WebviewChannelOptions<FromPage, ToPage>,
  ) {
    this.subscription = webview.onDidReceiveMessage((raw) => void this.receive(raw));
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Posts (redacted) once the page is ready; queues until then; drops after disposal. */
  post(message: ToPage): void {
    if (this.disposed) return;
    if (!this.ready) {
      this.queued.push(message);
      return;
    }
    void this.webview.postMessage(this.options.redact(message)).then(undefined, () => undefined);
  }

  /** A message from the page, as its `message` event delivers it (public: tests drive the path a click takes). */
  async receive(raw: unknown): Promise<void> {
    if (this.disposed) return;
    const message = this.options.parse(raw);
    if (!message) {
      // Not its contents: they are the page's, and may be anything.
      this.options.log.warn(`The ${this.options.name} sent a message that is not part of the protocol; ignored.`);
      return;
    }
    const held = message.type === 'ready' ? this.open() : [];
    try {
      await this.options.receive(message);
    } catch (error) {
      this.options.log.error(`${this.options.name}: handling "${message.type}" failed: ${errorMessage(error)}`);
      this.options.onError?.(error);
    }
    for (const queued of held) this.post(queued);
  }

  dispose(): void {
    this.disposed = true;
    this.queued.length = 0;
    this.subscription.dispose();
  }

  /** Opens the gate; returns the queued messages the owner's answer to `ready` does not replace. */
  private open(): ToPage[] {
    this.ready = true;
    const keep = this.options.keepAfterReady ?? (() => true);
    return this.queued.splice(0).filter(keep);
  }
}
