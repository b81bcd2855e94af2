// Which kind of network an IP address is on. A download the gateway points us at may only go
// where the gateway itself is (or to the public internet): an image URL that names 127.0.0.1, a
// 10.x address or 169.254.169.254 (cloud metadata) must not make the editor fetch from the
// user's own machine or network.
import { BlockList, isIP } from 'node:net';

export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

type Range = readonly [network: string, prefix: number, family: 'ipv4' | 'ipv6'];

// BlockList matches IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) against the IPv4 ranges too.
const RANGES: Readonly<Record<Exclude<AddressClass, 'public'>, readonly Range[]>> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  unspecified: [
    ['0.0.0.0', 8, 'ipv4'],
    ['::', 128, 'ipv6'],
  ],
  'link-local': [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
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
  multicast: [
    ['224.0.0.0', 4, 'ipv4'],
    ['ff00::', 8, 'ipv6'],
  ],
  reserved: [
    ['240.0.0.0', 4, 'ipv4'],
    ['255.255.255.255', 32, 'ipv4'],
  ],
};

const LISTS = Object.entries(RANGES).map(([name, ranges]) => {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
  return { name: name as AddressClass, list };
});

/** Without IPv6 brackets or a trailing dot: the form isIP and DNS answers use. */
export function bareHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** The class of an IP address, or undefined when `address` is not one (a host name). */
export function addressClass(address: string): AddressClass | undefined {
  const bare = bareHost(address);
  const version = isIP(bare);
  if (version === 0) return undefined;
  if (version === 6) {
    const groups = ipv6Groups(bare);
    const embedded = groups ? embeddedIPv4(groups) : undefined;
    if (embedded !== undefined) return embedded === 'private' ? 'private' : (addressClass(embedded) ?? 'reserved');
  }
  const family = version === 6 ? 'ipv6' : 'ipv4';
  for (const { name, list } of LISTS) if (list.check(bare, family)) return name;
  return 'public';
}

/**
 * The IPv4 address an IPv6 one stands for, where a translator, a tunnel or the stack itself would
 * reach that IPv4 address: IPv4-mapped `::ffff:a.b.c.d` and SIIT `::ffff:0:a.b.c.d`, the
 * deprecated IPv4-compatible `::a.b.c.d` (URLs write `[::127.0.0.1]` as `[::7f00:1]`), NAT64's
 * well-known prefix `64:ff9b::/96`, 6to4 `2002:AABB:CCDD::/48` and Teredo's client (inverted in
 * the last 32 bits). NAT64's local-use prefix `64:ff9b:1::/48` leads into the local network
 * whatever it embeds: 'private'. `::` and `::1` are themselves, not embeddings.
 */
function embeddedIPv4(g: readonly number[]): string | undefined {
  const v4 = (high: number, low: number): string => `${high >>> 8}.${high & 0xff}.${low >>> 8}.${low & 0xff}`;
  const zero = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  const [g0, g1, g2, , , g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  if (zero(0, 5) && g5 === 0xffff) return v4(g6, g7);
  if (zero(0, 4) && g[4] === 0xffff && g5 === 0) return v4(g6, g7);
  if (zero(0, 6) && (g6 !== 0 || g7 > 1)) return v4(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && zero(2, 6)) return v4(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'private';
  if (g0 === 0x2002) return v4(g1, g2);
  if (g0 === 0x2001 && g1 === 0) return v4(g6 ^ 0xffff, g7 ^ 0xffff);
  return undefined;
}

/** The eight 16-bit groups of a valid IPv6 address (isIP said so), a dotted IPv4 tail included. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string): number[] => (part ? part.split(':').map((x) => parseInt(x, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const groups =
    tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((x) => Number.isInteger(x) && x >= 0 && x <= 0xffff) ? groups : undefined;
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
