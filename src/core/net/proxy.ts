// Which proxy a request goes through: VS Code's `http.proxy` setting, else the conventional
// environment variables, minus the hosts NO_PROXY / `http.noProxy` exempt.
import { BlockList, isIP } from 'node:net';
import { bareHost } from './addressClass';

export interface ProxyConfig {
  /** VS Code's `http.proxy`; wins over the environment when set (non-blank). */
  proxy?: string;
  /** VS Code's `http.noProxy` entries (same syntax as NO_PROXY items). */
  noProxy?: string[];
  /** Default: process.env. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The proxy URL for `target`, or undefined to connect directly. Environment lookup follows curl
 * and undici's EnvHttpProxyAgent: lower-case first (`https_proxy`, then `HTTPS_PROXY` for https
 * targets, `http_proxy` then `HTTP_PROXY` for http), then `all_proxy` / `ALL_PROXY`. Blank values
 * count as unset. A value without a scheme gets `http://`. NO_PROXY / no_proxy and `noProxy`
 * apply to every source, the setting included.
 */
export function selectProxy(target: string | URL, config: ProxyConfig = {}): string | undefined {
  let url: URL;
  try {
    url = typeof target === 'string' ? new URL(target) : target;
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const env = config.env ?? process.env;
  const https = url.protocol === 'https:';
  const proxy =
    nonBlank(config.proxy) ??
    (https
      ? (nonBlank(env.https_proxy) ?? nonBlank(env.HTTPS_PROXY))
      : (nonBlank(env.http_proxy) ?? nonBlank(env.HTTP_PROXY))) ??
    nonBlank(env.all_proxy) ??
    nonBlank(env.ALL_PROXY);
  if (proxy === undefined) return undefined;
  const port = url.port ? Number(url.port) : https ? 443 : 80;
  const exemptions = [...(config.noProxy ?? []), nonBlank(env.no_proxy) ?? nonBlank(env.NO_PROXY) ?? ''].join(',');
  if (matchesNoProxy(url.hostname, port, exemptions)) return undefined;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * Whether NO_PROXY-style `noProxy` exempts `host:port`. Entries are separated by commas and/or
 * white space, compared case-insensitively: `*` exempts everything; `example.com`, `.example.com`
 * and `*.example.com` exempt the domain and all its subdomains; `host:port` (`[::1]:8080` for
 * IPv6) only that port; an IP address only itself (no DNS lookups, so `localhost` does not cover
 * 127.0.0.1); a CIDR range (`10.0.0.0/8`, `fd00::/8`) the addresses in it.
 */
export function matchesNoProxy(host: string, port: number, noProxy: string): boolean {
  // Lower case, without IPv6 brackets or a trailing dot (`example.com.` is the same name).
  const target = bareHost(host);
  if (!target) return false;
  const hostIp = isIP(target);
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const cidr = /^([^/]+)\/(\d{1,3})$/.exec(entry);
    if (cidr?.[1] && cidr[2]) {
      if (hostIp && inSubnet(target, hostIp, bareHost(cidr[1]), Number(cidr[2]))) return true;
      continue;
    }
    const { name, entryPort } = splitPort(entry);
    if (entryPort !== undefined && entryPort !== port) continue;
    const entryHost = bareHost(name.replace(/^\*?\./, ''));
    if (!entryHost) continue;
    const entryIp = isIP(entryHost);
    if (hostIp || entryIp) {
      if (hostIp && entryIp && sameAddress(target, hostIp, entryHost, entryIp)) return true;
      continue;
    }
    if (target === entryHost || target.endsWith(`.${entryHost}`)) return true;
  }
  return false;
}

function splitPort(entry: string): { name: string; entryPort?: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed?.[1])
    return bracketed[2] ? { name: bracketed[1], entryPort: Number(bracketed[2]) } : { name: bracketed[1] };
  // Two or more colons: a bare IPv6 address, which has no port.
  const hostPort = /^([^:]+):(\d+)$/.exec(entry);
  if (hostPort?.[1] && hostPort[2]) return { name: hostPort[1], entryPort: Number(hostPort[2]) };
  return { name: entry };
}

function family(version: number): 'ipv4' | 'ipv6' {
  return version === 6 ? 'ipv6' : 'ipv4';
}

/** Through BlockList so that `::1` and `0:0:0:0:0:0:0:1` (and IPv4-mapped forms) compare equal. */
function sameAddress(a: string, aVersion: number, b: string, bVersion: number): boolean {
  const list = new BlockList();
  list.addAddress(b, family(bVersion));
  return list.check(a, family(aVersion));
}

function inSubnet(address: string, version: number, network: string, prefix: number): boolean {
  const networkVersion = isIP(network);
  if (!networkVersion || prefix > (networkVersion === 6 ? 128 : 32)) return false;
  const list = new BlockList();
  list.addSubnet(network, prefix, family(networkVersion));
  return list.check(address, family(version));
}
