import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate } from './auth';
import { createContext, type GatewayState, type Route } from './context';
import { errorBody, HttpError, type ErrorShape } from './errors';
import { redactHeaders, type CloseOutcome, type RequestRecord, type RequestRecorder } from './recorder';
import { Reply } from './reply';
import { sendPortalPage } from './wireVariants';

function newRecord(
  req: IncomingMessage,
  url: URL,
  seq: number,
): { record: RequestRecord; settle: (outcome: CloseOutcome) => void } {
  let settle: (outcome: CloseOutcome) => void = () => undefined;
  const closed = new Promise<CloseOutcome>((resolve) => (settle = resolve));
  const record: RequestRecord = {
    seq,
    requestId: `req_${randomUUID().replace(/-/g, '')}`,
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: redactHeaders(req.headers),
    startedAt: Date.now(),
    bytesWritten: 0,
    writes: [],
    cutByFault: false,
    closed,
  };
  return { record, settle };
}

function match(
  routes: readonly Route[],
  method: string,
  path: string,
): { route?: Route; params: Record<string, string>; pathKnown: boolean } {
  let pathKnown = false;
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (route.method === method) return { route, params: { ...m.groups }, pathKnown };
  }
  return { params: {}, pathKnown };
}

async function sendError(reply: Reply, shape: ErrorShape, error: HttpError): Promise<void> {
  if (reply.headersSent) {
    reply.end(); // mid-stream: the status line is gone, so the best we can do is stop cleanly
    return;
  }
  if (typeof error.rawBody === 'string')
    return reply.send(error.status, 'text/plain; charset=utf-8', error.rawBody, error.headers);
  if (error.rawBody !== undefined) return reply.json(error.status, error.rawBody, error.headers);
  // The spec fixes the 401 body as `{error: string}` on every endpoint.
  const body = error.status === 401 ? { error: error.message } : errorBody(shape, error);
  await reply.json(error.status, body, error.headers);
}

/** The request listener: record, route, authenticate, run the handler, and turn thrown errors into bodies. */
export function createListener(
  routes: readonly Route[],
  state: GatewayState,
  recorder: RequestRecorder,
): (req: IncomingMessage, res: ServerResponse) => void {
  let seq = 0;
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const { record, settle } = newRecord(req, url, ++seq);
    recorder.add(record);
    res.on('close', () => {
      record.outcome = res.writableFinished ? 'completed' : 'aborted';
      record.closedAt = Date.now();
      settle(record.outcome);
      recorder.notify(record);
    });
    const reply = new Reply(res, record, () => recorder.notify(record));
    const { route, params, pathKnown } = match(routes, req.method ?? 'GET', path);
    const run = async (): Promise<void> => {
      if (!route) {
        req.resume();
        throw pathKnown
          ? new HttpError(
              405,
              `Method ${req.method} is not allowed on ${path}`,
              'invalid_request_error',
              'method_not_allowed',
            )
          : new HttpError(404, `No such endpoint: ${req.method} ${path}`, 'not_found_error', 'unknown_path');
      }
      let key = '';
      if (route.auth) {
        const auth = authenticate(req, (candidate) => state.quota.has(candidate));
        if (!auth.ok) {
          req.resume();
          throw new HttpError(401, auth.message, 'authentication_error', 'invalid_api_key', undefined, {
            'www-authenticate': 'Bearer',
          });
        }
        key = auth.key;
        record.authHeader = auth.header;
      }
      const ctx = createContext({
        req,
        url,
        params,
        reply,
        record,
        key,
        state,
        onRecordChange: () => recorder.notify(record),
      });
      if (!route.faultFromModel) await ctx.applyFault();
      if (reply.fault?.wire?.has('html-200') && !route.faultFromModel) return sendPortalPage(reply);
      await route.handle(ctx);
    };
    run()
      .catch(async (error: unknown) => {
        if (reply.gone) return;
        if (error instanceof HttpError) return sendError(reply, route?.shape ?? 'openai', error);
        console.error('[local gateway] handler failed:', error);
        return sendError(
          reply,
          route?.shape ?? 'openai',
          new HttpError(
            500,
            `Internal error in the local gateway: ${(error as Error).message}`,
            'server_error',
            'internal_error',
          ),
        );
      })
      .catch((error: unknown) => console.error('[local gateway] could not send the error:', error));
  };
}
