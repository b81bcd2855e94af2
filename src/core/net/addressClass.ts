// Which kind of network an IP address is on. A download the gateway points us at may only go
// where the gateway itself is (or to the public internet): an image URL that names 127.0.0.1, a
// 10.x address or 169.254.169.254 (cloud metadata) must not make the editor fetch from the
// user's own machine or network.
import { BlockList, isIP } from 'node:net';

export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

type Range = readonly [network: string, prefix: number, family: 'ipv4' | 'ipv6'];

// BlockList matches IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) against the IPv4 ranges too.
const RANGES: Readonly<Record<Exclude<AddressClass, 'public'>, readonly Range[]>> = {
  loopback: [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']],
  unspecified: [['0.0.0.0', 8, 'ipv4'], ['::', 128, 'ipv6']],
  'link-local': [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']],
  private: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    // Carrier-grade NAT: not the public internet either.
    ['100.64.0.0', 10, 'ipv4'],
    // Unique local and the deprecated site-local IPv6 ranges.
    ['fc00::', 7, 'ipv6'],
    ['fec0::', 10, 'ipv6'],
  ],
  multicast: [['224.0.0.0', 4, 'ipv4'], ['ff00::', 8, 'ipv6']],
  reserved: [['240.0.0.0', 4, 'ipv4'], ['255.255.255.255', 32, 'ipv4']],
};

const LISTS = Object.entries(RANGES).map(([name, ranges]) => {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
  return { name: name as AddressClass, list };
});

/** Without IPv6 brackets or a trailing dot: the form isIP and DNS answers use. */
export function bareHost(host: string): string {
  return host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

/** The class of an IP address, or undefined when `address` is not one (a host name). */
export function addressClass(address: string): AddressClass | undefined {
  const bare = bareHost(address);
  const version = isIP(bare);
  if (version === 0) return undefined;
  const family = version === 6 ? 'ipv6' : 'ipv4';
  for (const { name, list } of LISTS) if (list.check(bare, family)) return name;
  return 'public';
}

/** `localhost` and `*.localhost` never leave the machine (RFC 6761), whatever DNS says. */
export function isLocalhostName(host: string): boolean {
  const bare = bareHost(host);
  return bare === 'localhost' || bare.endsWith('.localhost');
}

/** How a class reads in a message. */
export function describeAddressClass(kind: AddressClass): string {
  switch (kind) {
    case 'loopback':
      return 'a loopback address (this machine)';
    case 'private':
      return 'a private network address';
    case 'link-local':
      return 'a link-local address (such as a cloud metadata service)';
    case 'unspecified':
      return 'an unspecified address (0.0.0.0)';
    case 'multicast':
      return 'a multicast address';
    case 'reserved':
      return 'a reserved address';
    case 'public':
      return 'a public address';
  }
}
