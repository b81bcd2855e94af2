// POST /api/v1/chat/completions, plain and streamed.
import { managedStream } from '../streams/streamIterable';
import type { OpenedStream } from '../streams/streamIterable';
import { GatewayError } from '../errors';
import type { Transport } from '../transport/transport';
import { parseChatCompletion } from '../parse/chat';
import { parseChatStream } from '../streams/chatStream';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionRequest } from '../types/chat';
import type { RequestOptions } from '../types/common';
import {
  checkInteger,
  checkOneOf,
  checkRange,
  requireArray,
  requireObject,
  requireString,
} from '../transport/validate';

/** Base URLs whose gateway answered 400 to `stream_options`: later streams there go without it. */
const rejectsStreamOptions = new Set<string>();

function validateChatRequest(req: ChatCompletionRequest): void {
  requireObject('request', req);
  requireString('model', req.model);
  requireArray('messages', req.messages);
  req.messages.forEach((message, i) => {
    requireObject(`messages[${i}]`, message);
    requireString(`messages[${i}].role`, message.role);
  });
  checkRange('temperature', req.temperature, 0, 2);
  checkInteger('max_tokens', req.max_tokens, 1);
  checkOneOf('reasoning_effort', req.reasoning_effort, ['low', 'medium', 'high']);
  if (req.tools !== undefined) requireArray('tools', req.tools, false);
  if (req.mcp_servers !== undefined) {
    requireArray('mcp_servers', req.mcp_servers, false);
    req.mcp_servers.forEach((server, i) => requireString(`mcp_servers[${i}]`, server));
  }
}

/** The body to send. Reasoning text from earlier answers is never sent back (wire-conventions). */
function chatBody(req: ChatCompletionRequest, stream: boolean, streamOptions: boolean): Record<string, unknown> {
  const { stream: _stream, stream_options: streamOptionsGiven, ...rest } = req;
  const messages = req.messages.map((message) => {
    if (!('reasoning_content' in message) && !('reasoning' in message)) return message;
    const { reasoning_content: _rc, reasoning: _r, ...kept } = message;
    return kept;
  });
  const body: Record<string, unknown> = { ...rest, messages };
  if (stream) {
    body.stream = true;
    if (streamOptionsGiven !== undefined) body.stream_options = streamOptionsGiven;
    else if (streamOptions) body.stream_options = { include_usage: true };
  }
  return body;
}

function rejectedStreamOptions(error: unknown): boolean {
  return (
    error instanceof GatewayError &&
    error.status === 400 &&
    /stream_options/i.test(`${error.message} ${error.param ?? ''} ${error.code ?? ''}`)
  );
}

export class ChatResource {
  constructor(private readonly transport: Transport) {}

  async create(req: ChatCompletionRequest, opts?: RequestOptions): Promise<ChatCompletion> {
    validateChatRequest(req);
    const body = await this.transport.json({
      method: 'POST',
      path: '/chat/completions',
      json: chatBody(req, false, false),
      retryable: true,
      options: opts,
    });
    return parseChatCompletion(body);
  }

  /**
   * Validates at once (a bad request throws InvalidRequestError here, where the caller can see it);
   * the request itself is lazy: it goes out on the first `next()`, when the `for await` starts.
   */
  stream(req: ChatCompletionRequest, opts?: RequestOptions): AsyncIterable<ChatCompletionChunk> {
    validateChatRequest(req);
    const base = this.transport.baseUrl;
    const open = (withOptions: boolean): Promise<OpenedStream<ChatCompletionChunk>> =>
      this.transport.openStream(
        {
          method: 'POST',
          path: '/chat/completions',
          json: chatBody(req, true, withOptions),
          accept: 'text/event-stream',
          retryable: true,
          options: opts,
        },
        parseChatStream,
      );
    return managedStream(async () => {
      const ours = req.stream_options === undefined && !rejectsStreamOptions.has(base);
      try {
        return await open(ours);
      } catch (error) {
        if (!ours || !rejectedStreamOptions(error)) throw error;
        // Retried once without it, and remembered for this gateway (wire-conventions "Usage").
        rejectsStreamOptions.add(base);
        return open(false);
      }
    }, opts?.signal);
  }
}
