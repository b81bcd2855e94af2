// A gateway that says the request was longer than the model's context: OpenAI's
// `context_length_exceeded` (400), Anthropic's "prompt is too long" and "input length and
// `max_tokens` exceed context limit", and the words other providers use. Compared by fields and
// words, not classes (wire-conventions: errors come in several shapes).

interface ErrorLike {
  readonly status?: number;
  readonly code?: string;
  readonly type?: string;
  readonly message?: string;
}

const WORDS =
  /context[_ ]length|context window|maximum context|exceeds? (the )?context limit|prompt is too long|too many (input )?tokens|input is too long|reduce the length of the messages/i;

export function isContextLengthError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as ErrorLike;
  if (e.code === 'context_length_exceeded' || e.type === 'context_length_exceeded') return true;
  // Only a refusal of the request: a stream that broke mid-answer is not about its length.
  return (
    (e.status === 400 || e.status === 413 || e.status === undefined) &&
    typeof e.message === 'string' &&
    WORDS.test(e.message)
  );
}

/**
 * The input tokens the gateway counted, when its message says ("... (1,900 in the messages, ...)"
 * as OpenAI words it, or Anthropic's "prompt is too long: 2100 tokens > 2048 maximum" and
 * "exceed context limit: 1900 + 4096 > 2048").
 */
export function reportedInputTokens(error: unknown): number | undefined {
  const message = typeof error === 'object' && error !== null ? (error as ErrorLike).message : undefined;
  if (typeof message !== 'string') return undefined;
  const match =
    /([\d,]+) (?:tokens )?in the messages/i.exec(message) ??
    /prompt is too long:\s*([\d,]+) tokens/i.exec(message) ??
    /context limit:\s*([\d,]+) \+/i.exec(message);
  const value = match?.[1] ? Number(match[1].replace(/,/g, '')) : NaN;
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The model's context length, when the error names it ("maximum context length is 2,048 tokens", "> 2048 maximum"). */
export function reportedContextLength(error: unknown): number | undefined {
  const message = typeof error === 'object' && error !== null ? (error as ErrorLike).message : undefined;
  if (typeof message !== 'string') return undefined;
  const match =
    /maximum context length is ([\d,]+)/i.exec(message) ??
    /> ([\d,]+) maximum/i.exec(message) ??
    /context limit: [\d,]+ \+ [\d,]+ > ([\d,]+)/i.exec(message);
  const value = match?.[1] ? Number(match[1].replace(/,/g, '')) : NaN;
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
