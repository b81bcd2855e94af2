// Where an image download may connect: the public internet, plus the kind of network the gateway
// itself is on (a gateway on 127.0.0.1 may hand out 127.0.0.1 links; one on a public address may
// not send us to 127.0.0.1, 10.x or 169.254.169.254). Literal IPs are checked before connecting;
// host names are checked on the addresses DNS gives, at connect time. Behind a proxy the proxy
// resolves names and connects, so a name is resolved here first and every address it gives must be
// allowed (one that does not resolve here is refused), except the gateway's own origin, which the
// extension talks to anyway. The proxy resolves the name again on its own: a name that answers
// differently there is the residue this cannot see.
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
    /** A proxy connects for us (and resolves names again itself): names are checked before the request. */
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

  /**
   * Before connecting: refuses a literal IP (or `localhost`) of a class the gateway is not in;
   * behind a proxy, also a host name (other than the gateway's origin) resolving to one here.
   */
  async checkHost(url: URL): Promise<void> {
    const host = bareHost(url.hostname);
    const kind = isIP(host) !== 0 ? addressClass(host) : isLocalhostName(host) ? 'loopback' : undefined;
    if (kind !== undefined) return this.require(kind, url.host, undefined);
    if (!this.proxied || url.origin === this.gateway.origin) return;
    const addresses = await this.lookup(host).catch(() => [] as readonly ResolvedAddress[]);
    if (addresses.length === 0) {
      throw new ImageDownloadError(
        'address',
        `Refused to download the image from ${url.host}: behind a proxy, the extension checks where an image link leads by resolving its name on this machine first, and ${host} does not resolve here.`,
      );
    }
    for (const { address } of addresses) await this.require(addressClass(address) ?? 'reserved', host, address);
  }

  /** At connect time (no proxy): every address the name resolved to must be allowed. */
  async resolveChecked(hostname: string): Promise<readonly ResolvedAddress[]> {
    const host = bareHost(hostname);
    const addresses = await this.lookup(host);
    if (addresses.length === 0)
      throw new ImageDownloadError('connection', `The image host ${host} has no address (DNS gave none).`);
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
    // Also behind a proxy: links are checked by what names resolve to here, the gateway's too.
    try {
      const addresses = await this.lookup(host);
      return {
        classes: new Set(addresses.map(({ address }) => addressClass(address) ?? 'public')),
        known: addresses.length > 0,
      };
    } catch {
      // The gateway's name does not resolve right now: nothing but public addresses this time.
      return { classes: new Set(['public']), known: false };
    }
  }
}
