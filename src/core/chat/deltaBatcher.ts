// Coalesces streamed text into one webview message per few milliseconds: a fast stream can bring
// hundreds of deltas a second, and each postMessage costs a structured clone on both sides.
const FLUSH_AFTER_MS = 8;

export class DeltaBatcher {
  private content = '';
  private reasoning = '';
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly send: (content: string, reasoning: string) => void) {}

  add(content: string | undefined, reasoning: string | undefined): void {
    if (content) this.content += content;
    if (reasoning) this.reasoning += reasoning;
    this.timer ??= setTimeout(() => this.flush(), FLUSH_AFTER_MS);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.content && !this.reasoning) return;
    const content = this.content;
    const reasoning = this.reasoning;
    this.content = '';
    this.reasoning = '';
    this.send(content, reasoning);
  }
}
