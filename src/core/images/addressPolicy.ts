// Where an image download may connect: the public internet, plus the kind of network the gateway
// itself is on (a gateway on 127.0.0.1 may hand out 127.0.0.1 links; one on a public address may
// not send us to 127.0.0.1, 10.x or 169.254.169.254). Literal IPs are checked before connecting;
// host names are checked on the addresses DNS gives, at connect time, unless a proxy connects for
// us (then DNS is the proxy's and only literal IPs can be checked here).
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ImageDownloadError } from '../errors';
import { addressClass, bareHost, describeAddressClass, isLocalhostName } from '../net/addressClass';
import type { AddressClass } from '../net/addressClass';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** DNS: every address of a host name. Tests pass a fake one (no real lookups, no real traffic). */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemLookup: HostLookup = async (hostname) => dnsLookup(hostname, { all: true, order: 'ipv4first' });

// Never a place to fetch an image from, wherever the gateway is.
const NEVER: ReadonlySet<AddressClass> = new Set(['multicast', 'reserved']);

export class AddressPolicy {
  private allowed: ReadonlySet<AddressClass> | undefined;

  constructor(
    private readonly gateway: URL,
    /** A proxy connects for us: host names are resolved by it, not here. */
    private readonly proxied: boolean,
    private readonly lookup: HostLookup = systemLookup,
  ) {}

  /** Public, plus the classes of the gateway's own host (kept once known; a failed lookup is tried again next time). */
  async allowedClasses(): Promise<ReadonlySet<AddressClass>> {
    if (this.allowed) return this.allowed;
    const { classes, known } = await this.classesOfGateway();
    const allowed = new Set<AddressClass>(['public']);
    for (const kind of classes) if (!NEVER.has(kind)) allowed.add(kind);
    // A gateway at 0.0.0.0 is reached on this machine.
    if (classes.has('unspecified')) allowed.add('loopback');
    if (known) this.allowed = allowed;
    return allowed;
  }

  /** Before connecting: refuses a literal IP (or `localhost`) of a class the gateway is not in. */
  async checkHost(url: URL): Promise<void> {
    const host = bareHost(url.hostname);
    const kind = isIP(host) !== 0 ? addressClass(host) : isLocalhostName(host) ? 'loopback' : undefined;
    if (kind !== undefined) await this.require(kind, url.host, undefined);
  }

  /** At connect time (no proxy): every address the name resolved to must be allowed. */
  async resolveChecked(hostname: string): Promise<readonly ResolvedAddress[]> {
    const host = bareHost(hostname);
    const addresses = await this.lookup(host);
    if (addresses.length === 0) throw new ImageDownloadError('connection', `The image host ${host} has no address (DNS gave none).`);
    for (const { address } of addresses) await this.require(addressClass(address) ?? 'reserved', host, address);
    return addresses;
  }

  private async require(kind: AddressClass, host: string, resolvedTo: string | undefined): Promise<void> {
    if ((await this.allowedClasses()).has(kind)) return;
    const where = resolvedTo === undefined ? host : `${host} (${resolvedTo})`;
    throw new ImageDownloadError(
      'address',
      `Refused to download the image from ${where}: that is ${describeAddressClass(kind)}, and the gateway (${this.gateway.host}) is not on such a network. ` +
        'Images are only downloaded from the public internet or from the kind of network the gateway is on; ask the gateway administrator if this link is expected.',
    );
  }

  private async classesOfGateway(): Promise<{ classes: ReadonlySet<AddressClass>; known: boolean }> {
    const host = bareHost(this.gateway.hostname);
    const literal = addressClass(host);
    if (literal !== undefined) return { classes: new Set([literal]), known: true };
    if (isLocalhostName(host)) return { classes: new Set(['loopback']), known: true };
    // Behind a proxy the gateway's address is the proxy's business: count it as public, so only
    // public literal addresses are accepted (the proxy resolves names itself).
    if (this.proxied) return { classes: new Set(['public']), known: true };
    try {
      const addresses = await this.lookup(host);
      return { classes: new Set(addresses.map(({ address }) => addressClass(address) ?? 'public')), known: addresses.length > 0 };
    } catch {
      // The gateway's name does not resolve right now: nothing but public addresses this time.
      return { classes: new Set(['public']), known: false };
    }
  }
}
