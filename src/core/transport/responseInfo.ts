// What a response says about itself beyond its body: headers read as one value, and the request
// id support asks for, added to a stream's error (the stream decoders are pure and never see it).
import { StreamError } from '../errors';
import type { HeaderBag } from './retry';

export function firstHeader(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function responseRequestId(headers: HeaderBag): string | undefined {
  return firstHeader(headers, 'x-request-id') ?? firstHeader(headers, 'request-id');
}

/**
 * A StreamError as the caller gets it: the stream decoders are pure (bytes in) and cannot know the
 * response, so its status and request id (what support asks for) are added here.
 */
export function withResponseInfo(error: unknown, status: number, requestId: string | undefined): unknown {
  if (!(error instanceof StreamError) || error.requestId !== undefined) return error;
  const init: ConstructorParameters<typeof StreamError>[1] = {
    status,
    interrupted: error.interrupted,
    cause: error.cause,
  };
  if (requestId !== undefined) init.requestId = requestId;
  if (error.code !== undefined) init.code = error.code;
  if (error.type !== undefined) init.type = error.type;
  if (error.param !== undefined) init.param = error.param;
  return new StreamError(error.message, init);
}
