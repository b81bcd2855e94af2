// A terminal command's output as a model gets it: at most `maxBytes`, the start and the end
// (where the command line's echo and the error summary usually are), and how much was left out.
// Memory stays bounded however much the command prints.

export class CappedOutput {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer = Buffer.alloc(0);
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const half = Math.floor(this.maxBytes / 2);
    let rest = chunk;
    if (this.headBytes < half) {
      const take = rest.subarray(0, half - this.headBytes);
      this.head.push(Buffer.from(take));
      this.headBytes += take.length;
      rest = rest.subarray(take.length);
    }
    if (rest.length) {
      const joined = Buffer.concat([this.tail, rest]);
      this.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - (this.maxBytes - half))));
    }
  }

  get bytes(): number {
    return this.total;
  }

  /** The kept text; a marker says how many bytes were left out between start and end. */
  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const omitted = this.total - this.headBytes - this.tail.length;
    if (omitted <= 0) return head + this.tail.toString('utf8');
    return `${head}\n[… ${omitted} bytes of output left out …]\n${this.tail.toString('utf8')}`;
  }
}
