// The gateway client's dispatcher may come as a function (GatewayClientOptions.dispatcher): made
// when the first request goes out, so that building a client loads none of undici.
import type { Dispatcher } from 'undici';
import type { DispatcherSource } from '../types/common';

/** The same source, with a function made to run at most once (its dispatcher is then shared by every caller). */
export function madeOnce(source: DispatcherSource | undefined): DispatcherSource | undefined {
  if (typeof source !== 'function') return source;
  let made: Dispatcher | undefined;
  return () => (made ??= source());
}

/** Reads a DispatcherSource when it is needed: the function runs on the first call only. */
export function dispatcherOnDemand(source: DispatcherSource | undefined): () => Dispatcher | undefined {
  const once = madeOnce(source);
  return typeof once === 'function' ? once : () => once;
}
