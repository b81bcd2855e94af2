// What the chat endpoints (/chat/completions and /messages) ask of the completion model: the text
// to answer (a `reply=` fault still wins) and the pace of its stream.
import type { CatalogModel } from './catalog';
import { completionAnswer, parseHolePrompt } from './completionModel';
import type { RouteContext } from './context';

/**
 * Between two stream pieces of the completion model: slow enough that a client which stops at the
 * end of the line or block closes the connection long before the continuation is all sent (the
 * request record's `closed` is `aborted`, `bytesWritten` small), fast enough for tests.
 */
const COMPLETION_PIECE_DELAY_MS = 8;

export function scriptedText(ctx: RouteContext, model: CatalogModel, lastUserText: string): { scripted?: string } {
  const fault = ctx.reply.fault;
  if (fault?.reply !== undefined) return { scripted: fault.reply };
  if (!model.completion) return {};
  const hole = parseHolePrompt(lastUserText);
  // Not a hole prompt: the model chats as the others do.
  if (!hole) return {};
  return { scripted: completionAnswer(ctx.state.completionFiles.files(), hole, fault?.wrap) };
}

export function pieceDelayMs(model: CatalogModel): number | undefined {
  return model.completion ? COMPLETION_PIECE_DELAY_MS : undefined;
}
