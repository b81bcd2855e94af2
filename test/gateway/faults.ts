import { badRequest } from './errors';
import type { EchoMode } from './keyEcho';
import { parseImageKinds, type ImageKind } from './imageLinks';
import { parseLimitWords, type WordsFault } from './limitWords';
import { isWireVariant, withVariant, type WireVariant } from './wireVariants';
import { parseScriptedReply } from './scriptedReply';
import { parseWrap, type WrapKind } from './completionModel';
import { parseWebSearch, type WebSearchMode } from './webSearch';

/** The header that selects a fault for one request; the same grammar works as a `::<spec>` model-name suffix. */
export const FAULT_HEADER = 'x-gateway-fault';

/** One parsed fault spec (see README.md, "Fault injection"). */
export interface FaultSpec {
  /** The exact spec text: `times` is counted per distinct text. */
  readonly raw: string;
  readonly delayHeadersMs?: number;
  readonly delayChunksMs?: number;
  readonly cutAfterBytes?: number;
  readonly malformedChunk: boolean;
  readonly errorEvent: boolean;
  readonly status?: number;
  readonly code?: string;
  readonly retryAfterS?: number;
  readonly retryAfterMs?: number;
  readonly times?: number;
  readonly rejectStreamOptions: boolean;
  /** Repeat the caller's key in errors, error events and headers (`echo-key`, `echo-key=escaped`), or split in the answer (`echo-key=split`). */
  readonly echoKey?: EchoMode;
  /** `huge-body=<bytes>`: a 2xx JSON answer padded to that many bytes, chunked (hugeBody.ts). */
  readonly hugeBodyBytes?: number;
  /** `images=<kind>,...`: what each image of a generation answer is (imageLinks.ts). */
  readonly images?: readonly ImageKind[];
  /** `whole-json`, `html-200`, `content-parts`...: answers shaped as other servers shape them (wireVariants.ts). */
  readonly wire?: ReadonlySet<WireVariant>;
  /** `limit-words[=nested|text]` / `rate-words`: a 429 that says what it is only in words (limitWords.ts). */
  readonly words?: WordsFault;
  /** /messages streams: `ping`, `overloaded-mid`, `redacted-thinking` (messagesFaults.ts). */
  readonly pings?: boolean;
  readonly overloadedMid?: boolean;
  readonly redactedThinking?: boolean;
  /** `settle-ms=<n>`: chat and messages charge the balance n ms after the response ended (lateSettle.ts). */
  readonly settleMs?: number;
  /** `reply=<base64url>`: chat and messages answer exactly this text (scriptedReply.ts). */
  readonly reply?: string;
  /** `match=<text>`: only requests whose body contains the text (faultMatch.ts). */
  readonly match?: string;
  /** `tool-args`: the tool call is scripted by the last user message, `<tool> <JSON>` (scriptedToolCall.ts). */
  readonly toolArgs?: boolean;
  /** `endless-line`: streams: after the middle event, one data line that never ends (floods.ts). */
  readonly endlessLine?: boolean;
  /** `tool-flood=<n>`: chat streams: the tool call is sent n times in one answer (floods.ts). */
  readonly toolFlood?: number;
  /** `tools-executed=<n>`: chat streams: n server-run tools in the tools_executed chunk (floods.ts). */
  readonly toolsExecuted?: number;
  /** `hang-before-end`: a stream sends all but its last two events, then stays open, silent, until the client goes away. */
  readonly hang?: boolean;
  /** `finish-error=<reason>`: chat streams: half the text, then a last chunk whose finish_reason is that reason, then `[DONE]` (a translating proxy passing an upstream's mid-stream error). */
  readonly finishError?: string;
  /** `tool-input-deltas`: messages streams: mcp_tool_use blocks start with `input: {}` and stream their input as input_json_delta pieces; the tools after the first take no arguments (one empty piece). */
  readonly toolInputDeltas?: boolean;
  /** `null-counts`: chat and messages streams: the closing usage sends the prompt/input count as `null` after an earlier event gave it (a proxy that does not know it). */
  readonly nullCounts?: boolean;
  /** `web-search[=error|hostile]`: chat and messages: the model searches the web first and cites the results (webSearch.ts). */
  readonly webSearch?: WebSearchMode;
  /** `mcp-error`: messages: every mcp_tool_result says `is_error: true` with the tool server's error text. */
  readonly mcpError?: boolean;
  /** `wrap=fence+explain...`: the completion model wraps its continuation as real models do (completionModel.ts). */
  readonly wrap?: ReadonlySet<WrapKind>;
}

function nonNegativeInt(item: string, value: string | undefined): number {
  const n = value === undefined ? NaN : Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw badRequest(FAULT_HEADER, `fault item '${item}' needs a non-negative integer value`, 'invalid_fault');
  return n;
}

/** Parses `a=1;b;c=2`. Unknown items are a 400 so a typo in a test never silently tests nothing. */
export function parseFaultSpec(raw: string): FaultSpec {
  const spec: { -readonly [K in keyof FaultSpec]: FaultSpec[K] } = {
    raw: raw.trim(),
    malformedChunk: false,
    errorEvent: false,
    rejectStreamOptions: false,
  };
  for (const part of raw.split(';')) {
    const item = part.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    const name = (eq < 0 ? item : item.slice(0, eq)).trim().toLowerCase();
    const value = eq < 0 ? undefined : item.slice(eq + 1).trim();
    switch (name) {
      case 'delay-headers':
        spec.delayHeadersMs = nonNegativeInt(name, value);
        break;
      case 'delay-chunks':
        spec.delayChunksMs = nonNegativeInt(name, value);
        break;
      case 'cut-after':
        spec.cutAfterBytes = nonNegativeInt(name, value);
        break;
      case 'malformed-chunk':
        spec.malformedChunk = true;
        break;
      case 'error-event':
        spec.errorEvent = true;
        break;
      case 'reject-stream-options':
        spec.rejectStreamOptions = true;
        break;
      case 'echo-key':
        if (value !== undefined && value !== 'escaped' && value !== 'split')
          throw badRequest(FAULT_HEADER, `fault item 'echo-key' takes no value, 'escaped' or 'split'`, 'invalid_fault');
        spec.echoKey = value ?? 'plain';
        break;
      case 'status': {
        const status = nonNegativeInt(name, value);
        if (status < 400 || status > 599)
          throw badRequest(FAULT_HEADER, `fault status must be 400..599, got ${status}`, 'invalid_fault');
        spec.status = status;
        break;
      }
      case 'code':
        if (!value) throw badRequest(FAULT_HEADER, `fault item 'code' needs a value`, 'invalid_fault');
        spec.code = value;
        break;
      case 'retry-after':
        spec.retryAfterS = nonNegativeInt(name, value);
        break;
      case 'retry-after-ms':
        spec.retryAfterMs = nonNegativeInt(name, value);
        break;
      case 'times':
        spec.times = nonNegativeInt(name, value);
        break;
      case 'huge-body':
        spec.hugeBodyBytes = nonNegativeInt(name, value);
        break;
      case 'images':
        spec.images = parseImageKinds(value, FAULT_HEADER);
        break;
      case 'limit-words':
        spec.words = parseLimitWords(value);
        if (!spec.words)
          throw badRequest(
            FAULT_HEADER,
            `fault item 'limit-words' takes no value, 'nested' or 'text'`,
            'invalid_fault',
          );
        break;
      case 'rate-words':
        spec.words = 'rate';
        break;
      case 'ping':
        spec.pings = true;
        break;
      case 'overloaded-mid':
        spec.overloadedMid = true;
        break;
      case 'redacted-thinking':
        spec.redactedThinking = true;
        break;
      case 'settle-ms':
        spec.settleMs = nonNegativeInt(name, value);
        break;
      case 'reply':
        spec.reply = parseScriptedReply(value);
        break;
      case 'match':
        if (!value) throw badRequest(FAULT_HEADER, `fault item 'match' needs a text`, 'invalid_fault');
        spec.match = value;
        break;
      case 'tool-args':
        spec.toolArgs = true;
        break;
      case 'endless-line':
        spec.endlessLine = true;
        break;
      case 'tool-flood':
        spec.toolFlood = nonNegativeInt(name, value);
        break;
      case 'tools-executed':
        spec.toolsExecuted = nonNegativeInt(name, value);
        break;
      case 'hang-before-end':
        spec.hang = true;
        break;
      case 'wrap':
        spec.wrap = parseWrap(value);
        break;
      case 'tool-input-deltas':
        spec.toolInputDeltas = true;
        break;
      case 'null-counts':
        spec.nullCounts = true;
        break;
      case 'web-search':
        spec.webSearch = parseWebSearch(value);
        break;
      case 'mcp-error':
        spec.mcpError = true;
        break;
      case 'finish-error':
        if (!value || !/^[a-z_]+$/i.test(value))
          throw badRequest(
            FAULT_HEADER,
            `fault item 'finish-error' needs a reason such as overloaded_error`,
            'invalid_fault',
          );
        spec.finishError = value;
        break;
      default:
        if (isWireVariant(name) && value === undefined) {
          spec.wire = withVariant(spec.wire, name);
          break;
        }
        throw badRequest(FAULT_HEADER, `unknown fault item '${name}'`, 'invalid_fault');
    }
  }
  return spec;
}

/** Splits `provider/name::spec` into the model id and the spec text (undefined when there is no suffix). */
export function splitModelFault(model: string): { model: string; fault?: string } {
  const at = model.indexOf('::');
  return at < 0 ? { model } : { model: model.slice(0, at), fault: model.slice(at + 2) };
}

/** Counts requests per exact spec text, per gateway instance, so `times=n` can fail the first n and let retries through. */
export class FaultCounter {
  private readonly seen = new Map<string, number>();

  /** Records one more request carrying `spec` and says whether its fault applies to this one. */
  applies(spec: FaultSpec): boolean {
    const count = (this.seen.get(spec.raw) ?? 0) + 1;
    this.seen.set(spec.raw, count);
    return spec.times === undefined || count <= spec.times;
  }

  reset(): void {
    this.seen.clear();
  }
}
