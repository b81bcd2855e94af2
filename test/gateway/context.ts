import type { CompletionFiles } from './completionFiles';
import type { IncomingMessage } from 'node:http';
import { readJson } from './body';
import { errorForStatus, HttpError, type ErrorShape } from './errors';
import { wordsError } from './limitWords';
import { faultMatches } from './faultMatch';
import { FAULT_HEADER, parseFaultSpec, splitModelFault, type FaultCounter, type FaultSpec } from './faults';
import type { ImageStore } from './imageStore';
import type { QuotaBook } from './quota';
import type { RequestRecord } from './recorder';
import type { Reply } from './reply';
import type { ResearchStore } from './researchStore';
import { requireString, type JsonObject } from './validate';

/** Settings every route may read; fixed when the gateway starts. */
interface GatewaySettings {
  /** Largest transcription upload, bytes (413 above). */
  readonly maxUploadBytes: number;
  /** Answer 400 naming `stream_options` whenever a chat request carries it (tests the client's fallback). */
  readonly rejectStreamOptions: boolean;
  /** How long an image URL stays downloadable. */
  readonly imageUrlTtlMs: number;
}

/** The gateway's mutable state, shared by all requests of one instance. */
export interface GatewayState {
  readonly secret: string;
  readonly quota: QuotaBook;
  readonly research: ResearchStore;
  readonly images: ImageStore;
  readonly faults: FaultCounter;
  readonly settings: GatewaySettings;
  /** The source files the completion model continues. */
  readonly completionFiles: CompletionFiles;
  /** `http://127.0.0.1:<port>`, known once listening (image URLs point here). */
  baseUrl: string;
}

export interface RouteContext {
  readonly req: IncomingMessage;
  readonly url: URL;
  readonly params: Readonly<Record<string, string>>;
  readonly reply: Reply;
  readonly record: RequestRecord;
  /** The authenticated key ('' on routes without auth). */
  readonly key: string;
  readonly state: GatewayState;
  /** Parses the JSON body (400 when it is not a JSON object) and records it. */
  jsonBody(): Promise<JsonObject>;
  /**
   * Applies the fault for this request: the `x-gateway-fault` header, else the `::spec` suffix of
   * `modelWithSuffix`. Waits `delay-headers`, throws the `status` error. Call once, after parsing.
   */
  applyFault(modelWithSuffix?: string): Promise<void>;
  /** Reads `body[field]` as a model id, applies the fault from its suffix, and returns the id without it. */
  takeModel(body: JsonObject, field?: string): Promise<string>;
}

export interface Route {
  readonly method: 'GET' | 'POST';
  /** Matched against the whole path; named groups become `params`. */
  readonly pattern: RegExp;
  readonly shape: ErrorShape;
  /** False only for the image files the gateway serves at its own URLs (they act like signed links). */
  readonly auth: boolean;
  /** True when the handler calls `takeModel`/`applyFault` itself (the fault may come from the model name). */
  readonly faultFromModel: boolean;
  handle(ctx: RouteContext): Promise<void>;
}

export function createContext(init: {
  req: IncomingMessage;
  url: URL;
  params: Record<string, string>;
  reply: Reply;
  record: RequestRecord;
  key: string;
  state: GatewayState;
  onRecordChange: () => void;
}): RouteContext {
  let faultApplied = false;
  const ctx: RouteContext = {
    ...init,
    async jsonBody() {
      const body = await readJson(init.req);
      init.record.body = body;
      init.onRecordChange();
      return body;
    },
    async applyFault(modelWithSuffix) {
      if (faultApplied) return;
      faultApplied = true;
      const header = init.req.headers[FAULT_HEADER];
      const raw =
        (Array.isArray(header) ? header[0] : header) ??
        (modelWithSuffix ? splitModelFault(modelWithSuffix).fault : undefined);
      if (raw === undefined || raw.trim() === '') return;
      const spec: FaultSpec = parseFaultSpec(raw);
      if (!faultMatches(spec.match, init.record.body)) return;
      if (!init.state.faults.applies(spec)) return;
      init.reply.fault = spec;
      if (spec.echoKey && init.key) init.reply.echo = { key: init.key, mode: spec.echoKey };
      init.record.fault = spec.raw;
      init.onRecordChange();
      if (spec.delayHeadersMs) await init.reply.sleep(spec.delayHeadersMs);
      if (spec.status !== undefined) {
        const error = errorForStatus(
          spec.status,
          `Simulated fault: status ${spec.status} (x-gateway-fault '${spec.raw}')`,
          spec.code,
        );
        if (spec.retryAfterS !== undefined) error.headers['retry-after'] = String(spec.retryAfterS);
        if (spec.retryAfterMs !== undefined) error.headers['retry-after-ms'] = String(spec.retryAfterMs);
        throw init.reply.echo ? echoIntoHttpError(init.reply.echo.key, error) : error;
      }
      if (spec.words) {
        const error = wordsError(spec.words);
        if (spec.retryAfterS !== undefined) error.headers['retry-after'] = String(spec.retryAfterS);
        throw error;
      }
    },
    async takeModel(body, field = 'model') {
      const raw = requireString(body, field, { nonEmpty: true });
      await ctx.applyFault(raw);
      return splitModelFault(raw).model;
    },
  };
  return ctx;
}

/** A status fault's error as an echoing gateway words it: the key in its message and code. */
function echoIntoHttpError(key: string, error: HttpError): HttpError {
  return new HttpError(
    error.status,
    `${error.message} (the key sent was ${key})`,
    error.type,
    `${error.code}:${key}`,
    error.param,
    error.headers,
  );
}
