// What to send when a conversation no longer fits the model's context, in the order that loses
// least: (1) long tool results in older turns are trimmed (head and tail kept, a note between);
// (2) the oldest exchanges are handed back to be summarized (the caller asks the model, puts the
// summary in the system prompt and plans again without them); (3) when that is not possible or
// not enough, the longest remaining parts are trimmed, then the oldest exchanges dropped, and
// last of all the latest user message itself is trimmed. The latest user message and the last
// few turns stay whole as long as anything else can give. A plan never claims to fit when it
// does not: `fits` is false, and the caller must not send.
import type { WireMessage, WirePart } from '../../shared/chatModel';
import { estimateRequestTokens, DEFAULT_TOKENS_PER_CHAR } from './tokenEstimate';
import { MIN_TRIM_CHARS, trimMiddle } from './trimText';

export interface ContextTurn {
  readonly id: string;
  /** A user turn: exchanges start here, and only here are old turns cut off (a tool call never loses its result). */
  readonly user: boolean;
  readonly messages: readonly WireMessage[];
}

export interface CompactionInput {
  /** The whole system prompt, an earlier summary included. */
  readonly system: string;
  /** The turns before the reply, oldest first; the last user turn among them is the message being answered. */
  readonly turns: readonly ContextTurn[];
  /** What the reply being written added so far (tool calls and results of earlier rounds). */
  readonly tail: readonly WireMessage[];
  /** Characters of the tool definitions sent along. */
  readonly toolChars?: number;
  /** Input tokens the request may use (contextBudget). */
  readonly budget: number;
  readonly tokensPerChar?: number;
  /** Turns at the end left whole by steps 1 and 2 (default 4: the last two exchanges). */
  readonly keepTurns?: number;
  /** Whether step 2 may ask for a summary (false once one was made for this request, or after it failed). */
  readonly allowSummary: boolean;
  /** Tokens the summary will take in the system prompt, reserved when choosing what to summarize. */
  readonly summaryTokens?: number;
}

export interface CompactionPlan {
  /** The turns to send, trimmed where needed (same ids). */
  readonly turns: readonly ContextTurn[];
  readonly tail: readonly WireMessage[];
  /** The oldest turns, as they were, to fold into a summary; then plan again without them. */
  readonly summarize?: readonly ContextTurn[];
  /** Old turns left out (no summary could carry them). */
  readonly dropped: readonly ContextTurn[];
  readonly trimmedResults: number;
  readonly trimmedChars: number;
  /** Characters cut out of the latest user message: it alone did not fit. */
  readonly trimmedLatest: number;
  readonly tokens: number;
  readonly fits: boolean;
}

/** Tool results in older turns longer than this are trimmed first. */
export const OLD_RESULT_CHARS = 2_000;
const DEFAULT_KEEP_TURNS = 4;

/** One trimmable part, with its original text so a second cut is made from the whole, not from a cut. */
interface Slot {
  readonly turn: number; // index into turns, or -1 for the tail
  readonly message: number;
  readonly part: number;
  readonly original: string;
  limit: number;
  readonly latest: boolean;
  readonly kind: 'text' | 'toolResult';
}

type Mutable = { id: string; user: boolean; messages: { role: 'user' | 'assistant'; parts: WirePart[] }[] };

function copyMessages(messages: readonly WireMessage[]): Mutable['messages'] {
  return messages.map((message) => ({ role: message.role, parts: [...message.parts] }));
}

export function planCompaction(input: CompactionInput): CompactionPlan {
  const ratio = input.tokensPerChar ?? DEFAULT_TOKENS_PER_CHAR;
  let turns: Mutable[] = input.turns.map((turn) => ({
    id: turn.id,
    user: turn.user,
    messages: copyMessages(turn.messages),
  }));
  const tail = copyMessages(input.tail);
  const system = input.system;
  const estimate = (): number =>
    estimateRequestTokens(
      {
        system,
        messages: [...turns.flatMap((turn) => turn.messages), ...tail],
        ...(input.toolChars ? { toolChars: input.toolChars } : {}),
      },
      ratio,
    );
  const dropped: ContextTurn[] = [];
  let latestIndex = findLastUser(turns);
  const slots: Slot[] = [];
  const slotOf = (turn: number, message: number, part: number): Slot | undefined =>
    slots.find((s) => s.turn === turn && s.message === message && s.part === part);
  const cut = (turn: number, message: number, part: number, limit: number): void => {
    const messages = turn < 0 ? tail : turns[turn]?.messages;
    const target = messages?.[message];
    const current = target?.parts[part];
    if (!target || !current || (current.kind !== 'text' && current.kind !== 'toolResult')) return;
    let slot = slotOf(turn, message, part);
    if (!slot) {
      slot = {
        turn,
        message,
        part,
        original: current.kind === 'text' ? current.text : current.content,
        limit: Infinity,
        latest: turn >= 0 && turn === latestIndex,
        kind: current.kind,
      };
      slots.push(slot);
    }
    if (limit >= slot.limit || slot.original.length <= Math.max(MIN_TRIM_CHARS, limit)) return;
    slot.limit = limit;
    const text = trimMiddle(slot.original, limit).text;
    target.parts[part] = current.kind === 'text' ? { ...current, text } : { ...current, content: text };
  };
  const result = (summarize?: readonly ContextTurn[], reserve = 0): CompactionPlan => {
    let trimmedResults = 0;
    let trimmedChars = 0;
    let trimmedLatest = 0;
    for (const slot of slots) {
      if (slot.limit === Infinity) continue;
      const kept = trimMiddle(slot.original, slot.limit);
      if (kept.trimmed === 0) continue;
      trimmedChars += kept.trimmed;
      if (slot.kind === 'toolResult') trimmedResults++;
      if (slot.latest) trimmedLatest += kept.trimmed;
    }
    const tokens = estimate() + reserve;
    return {
      turns,
      tail,
      ...(summarize ? { summarize } : {}),
      dropped,
      trimmedResults,
      trimmedChars,
      trimmedLatest,
      tokens,
      fits: tokens <= input.budget,
    };
  };
  if (estimate() <= input.budget) return result();

  // 1. Long tool results of older turns: head and tail are usually what a later turn needs.
  const keepFrom = Math.max(
    0,
    Math.min(turns.length - (input.keepTurns ?? DEFAULT_KEEP_TURNS), latestIndex < 0 ? turns.length : latestIndex),
  );
  for (let t = 0; t < keepFrom; t++) {
    turns[t]?.messages.forEach((message, m) =>
      message.parts.forEach((part, p) => {
        if (part.kind === 'toolResult' && part.content.length > OLD_RESULT_CHARS) cut(t, m, p, OLD_RESULT_CHARS);
      }),
    );
  }
  if (estimate() <= input.budget) return result();

  // 2. The oldest exchanges into a summary: as few as make the rest fit, else all before the kept turns.
  if (input.allowSummary) {
    const reserve = input.summaryTokens ?? 0;
    let chosen = 0;
    for (let k = 1; k <= keepFrom; k++) {
      if (!turns[k]?.user) continue;
      chosen = k;
      const rest =
        estimateRequestTokens(
          {
            system,
            messages: [...turns.slice(k).flatMap((turn) => turn.messages), ...tail],
            ...(input.toolChars ? { toolChars: input.toolChars } : {}),
          },
          ratio,
        ) + reserve;
      if (rest <= input.budget) break;
    }
    if (chosen > 0) {
      const summarize = input.turns.slice(0, chosen);
      turns = turns.slice(chosen);
      return result(summarize, reserve);
    }
  }

  // 3. The longest parts first, anywhere but the latest user message; then the oldest exchanges
  // go; then, last, the latest message itself.
  squeeze(false);
  while (estimate() > input.budget) {
    const next = turns.findIndex((turn, index) => index > 0 && turn.user);
    if (next <= 0 || next > latestIndex) break;
    for (const gone of turns.slice(0, next)) {
      const original = input.turns.find((turn) => turn.id === gone.id);
      if (original) dropped.push(original);
    }
    turns = turns.slice(next);
    latestIndex -= next;
    // Slots point at turn indexes: re-base them.
    for (let i = slots.length - 1; i >= 0; i--) {
      const slot = slots[i] as Slot;
      if (slot.turn < 0) continue;
      if (slot.turn < next) slots.splice(i, 1);
      else (slot as { turn: number }).turn = slot.turn - next;
    }
  }
  squeeze(true);
  return result();

  function squeeze(includeLatest: boolean): void {
    for (let guard = 0; guard < 10_000; guard++) {
      const over = estimate() - input.budget;
      if (over <= 0) return;
      let best: { turn: number; message: number; part: number; length: number } | undefined;
      const consider = (turn: number, messages: Mutable['messages']): void => {
        if (turn >= 0 && turn === latestIndex && !includeLatest) return;
        messages.forEach((message, m) =>
          message.parts.forEach((part, p) => {
            if (part.kind !== 'text' && part.kind !== 'toolResult') return;
            const slot = slotOf(turn, m, p);
            const length =
              slot && slot.limit !== Infinity
                ? Math.min(slot.limit, slot.original.length)
                : part.kind === 'text'
                  ? part.text.length
                  : part.content.length;
            if (length > MIN_TRIM_CHARS && (!best || length > best.length))
              best = { turn, message: m, part: p, length };
          }),
        );
      };
      turns.forEach((turn, t) => consider(t, turn.messages));
      consider(-1, tail);
      const target = best;
      if (!target) return;
      // Cut just the excess when one part can give it, else halve the longest and look again.
      const excessChars = Math.ceil(over / ratio) + 100;
      cut(
        target.turn,
        target.message,
        target.part,
        Math.max(MIN_TRIM_CHARS, Math.floor(target.length / 2), target.length - excessChars),
      );
    }
  }
}

function findLastUser(turns: readonly { user: boolean }[]): number {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i]?.user) return i;
  return -1;
}
