// POST /api/v1/messages (Anthropic Messages format), plain and streamed.
import type { Transport } from '../transport/transport';
import { parseMessagesStream } from '../streams/messagesStream';
import { parseMessage } from '../parse/messages';
import { managedStream } from '../streams/streamIterable';
import { InvalidRequestError } from '../errors';
import type { RequestOptions } from '../types/common';
import type { Message, MessageCreateRequest, MessageStreamEvent } from '../types/messages';
import { checkInteger, checkRange, requireArray, requireObject, requireString } from '../transport/validate';

const ANTHROPIC_VERSION = '2023-06-01';

function validateMessagesRequest(req: MessageCreateRequest): void {
  requireObject('request', req);
  requireString('model', req.model);
  if (req.max_tokens === undefined) throw new InvalidRequestError('max_tokens', 'max_tokens is required');
  checkInteger('max_tokens', req.max_tokens, 1);
  requireArray('messages', req.messages);
  req.messages.forEach((message, i) => {
    requireObject(`messages[${i}]`, message);
    requireString(`messages[${i}].role`, message.role);
  });
  // The Messages API's own range (wire-conventions: the Anthropic conventions apply here).
  checkRange('temperature', req.temperature, 0, 1);
  const thinking = req.thinking;
  if (thinking !== undefined && thinking.type === 'enabled') {
    checkInteger('thinking.budget_tokens', thinking.budget_tokens, 1024);
    if (thinking.budget_tokens >= req.max_tokens)
      throw new InvalidRequestError('thinking.budget_tokens', 'thinking.budget_tokens must be less than max_tokens');
  }
}

export class MessagesResource {
  constructor(private readonly transport: Transport) {}

  async create(req: MessageCreateRequest, opts?: RequestOptions): Promise<Message> {
    validateMessagesRequest(req);
    const { stream: _stream, ...body } = req;
    const json = await this.transport.json({
      method: 'POST',
      path: '/messages',
      json: body,
      headers: { 'anthropic-version': ANTHROPIC_VERSION },
      retryable: true,
      options: opts,
    });
    return parseMessage(json);
  }

  /** Validates at once and sends lazily, like chat.stream. Pings, unknown events and errors (thrown) are not yielded. */
  stream(req: MessageCreateRequest, opts?: RequestOptions): AsyncIterable<MessageStreamEvent> {
    validateMessagesRequest(req);
    return managedStream(
      () =>
        this.transport.openStream(
          {
            method: 'POST',
            path: '/messages',
            json: { ...req, stream: true },
            headers: { 'anthropic-version': ANTHROPIC_VERSION },
            accept: 'text/event-stream',
            retryable: true,
            options: opts,
          },
          parseMessagesStream,
        ),
      opts?.signal,
    );
  }
}
