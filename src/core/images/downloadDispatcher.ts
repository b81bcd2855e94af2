// The dispatcher image downloads go through: the gateway client's own (same proxy, CA and TLS
// policy as every gateway request), with DNS done by us and checked before connecting when no
// proxy is in between. undici's dns interceptor connects to exactly the address our lookup
// returned (with the host name kept for TLS and the Host header), so a name cannot pass the check
// with one address and connect to another.
import { EnvHttpProxyAgent, getGlobalDispatcher, interceptors, ProxyAgent } from 'undici';
import type { Dispatcher } from 'undici';
import type { AddressPolicy } from './addressPolicy';

/** True when the dispatcher sends requests through a proxy (which then resolves host names itself). */
export function isProxied(dispatcher: Dispatcher): boolean {
  return dispatcher instanceof ProxyAgent || dispatcher instanceof EnvHttpProxyAgent;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  addresses: { address: string; family: 4 | 6; ttl: number }[],
) => void;

const RECORD_TTL_MS = 5_000;

export function downloadDispatcher(base: Dispatcher | undefined, policy: AddressPolicy, proxied: boolean): Dispatcher {
  const dispatcher = base ?? getGlobalDispatcher();
  if (proxied) return dispatcher;
  return dispatcher.compose(
    interceptors.dns({
      // Records stay valid for a few seconds only: enough for one image and its redirects.
      maxTTL: RECORD_TTL_MS,
      lookup: (origin: URL, _options: unknown, callback: LookupCallback) => {
        policy.resolveChecked(origin.hostname).then(
          (addresses) =>
            callback(
              null,
              addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4, ttl: RECORD_TTL_MS })),
            ),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), []),
        );
      },
    }),
  );
}
