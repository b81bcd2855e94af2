// Which addresses an image link may reach, as a pure policy (fake DNS, nothing is connected).
import * as assert from 'node:assert/strict';
import { addressClass } from '../../../src/core/net/addressClass';
import { ImageDownloadError } from '../../../src/core/errors';
import { AddressPolicy } from '../../../src/core/images/addressPolicy';
import { rejectionOf } from './testUtil';

function fakeDns(
  table: Record<string, string>,
  asked: string[] = [],
): (hostname: string) => Promise<{ address: string; family: number }[]> {
  return async (hostname) => {
    asked.push(hostname);
    const address = table[hostname];
    return address ? [{ address, family: address.includes(':') ? 6 : 4 }] : [];
  };
}

describe('image link address policy', () => {
  it('classifies addresses, IPv4-mapped IPv6 included', () => {
    const cases: Record<string, string> = {
      '127.0.0.1': 'loopback',
      '::1': 'loopback',
      '[::ffff:7f00:1]': 'loopback',
      '10.1.2.3': 'private',
      '172.20.0.1': 'private',
      '192.168.1.1': 'private',
      '100.64.0.1': 'private',
      'fd00::1': 'private',
      '169.254.169.254': 'link-local',
      'fe80::1': 'link-local',
      '0.0.0.0': 'unspecified',
      '::': 'unspecified',
      '224.0.0.1': 'multicast',
      '255.255.255.255': 'reserved',
      '93.184.216.34': 'public',
      '2606:4700::1': 'public',
      '[::ffff:a9fe:a9fe]': 'link-local',
    };
    for (const [address, kind] of Object.entries(cases)) assert.equal(addressClass(address), kind, address);
    assert.equal(addressClass('example.com'), undefined);
  });

  it('classifies IPv6 forms that embed an IPv4 address by that address (compatible, mapped, SIIT, NAT64, 6to4, Teredo)', () => {
    const cases: Record<string, string> = {
      // IPv4-compatible, as typed and as a URL writes it ([::127.0.0.1] becomes [::7f00:1]).
      '[::127.0.0.1]': 'loopback',
      [new URL('http://[::127.0.0.1]/').hostname]: 'loopback',
      '::a9fe:a9fe': 'link-local',
      '::10.0.0.1': 'private',
      '::8.8.8.8': 'public',
      // IPv4-mapped in both spellings, and SIIT's translated form.
      '::ffff:127.0.0.1': 'loopback',
      '::ffff:0:127.0.0.1': 'loopback',
      '::ffff:0:a00:1': 'private',
      // NAT64: the well-known prefix takes the embedded class; the local-use /48 is the local network.
      '64:ff9b::127.0.0.1': 'loopback',
      [new URL('http://[64:ff9b::169.254.169.254]/').hostname]: 'link-local',
      '64:ff9b::8.8.8.8': 'public',
      '64:ff9b:1::8.8.8.8': 'private',
      '64:ff9b:1:abcd::1': 'private',
      // 6to4 embeds its router's address; Teredo its client's, inverted.
      '2002:7f00:1::1': 'loopback',
      '2002:a00:1::': 'private',
      '2002:808:808::1': 'public',
      '2001:0:4136:e378:8000:63bf:80ff:fffe': 'loopback',
      // Not embeddings: the unspecified and loopback addresses themselves.
      '::': 'unspecified',
      '::1': 'loopback',
      '::2': 'unspecified',
    };
    for (const [address, kind] of Object.entries(cases)) assert.equal(addressClass(address), kind, address);
  });

  it("allows public addresses and the gateway's own class, nothing else", async () => {
    const check = async (gateway: string, link: string): Promise<string> => {
      const error = await new AddressPolicy(new URL(gateway), false, fakeDns({})).checkHost(new URL(link)).then(
        () => undefined,
        (e: unknown) => e,
      );
      return error === undefined ? 'allowed' : error instanceof ImageDownloadError ? error.reason : String(error);
    };
    assert.equal(
      await check('http://10.0.0.5:8080', 'http://10.9.9.9/x.png'),
      'allowed',
      'private gateway, private link',
    );
    assert.equal(
      await check('http://10.0.0.5:8080', 'http://127.0.0.1/x.png'),
      'address',
      'private gateway, loopback link',
    );
    assert.equal(
      await check('http://10.0.0.5:8080', 'http://169.254.169.254/'),
      'address',
      'private gateway, metadata link',
    );
    assert.equal(
      await check('http://169.254.10.10', 'http://169.254.169.254/'),
      'allowed',
      'a link-local gateway may link there',
    );
    assert.equal(await check('http://localhost:8787', 'http://127.0.0.1/x.png'), 'allowed');
    assert.equal(await check('http://127.0.0.1:8787', 'http://8.8.8.8/x.png'), 'allowed', 'public is always allowed');
    assert.equal(await check('http://127.0.0.1:8787', 'http://224.0.0.1/x.png'), 'address', 'never multicast');
  });

  it("resolves the gateway's name for its class; behind a proxy, host names are resolved here before the request", async () => {
    const asked: string[] = [];
    const direct = new AddressPolicy(
      new URL('https://gw.corp.test'),
      false,
      fakeDns({ 'gw.corp.test': '10.0.0.5', 'img.corp.test': '10.0.0.6', 'meta.test': '169.254.169.254' }, asked),
    );
    assert.deepEqual(await direct.resolveChecked('img.corp.test'), [{ address: '10.0.0.6', family: 4 }]);
    assert.ok(((await rejectionOf(direct.resolveChecked('meta.test'))) as ImageDownloadError).reason === 'address');
    assert.deepEqual([...asked].sort(), ['gw.corp.test', 'img.corp.test', 'meta.test'], 'the gateway looked up once');

    const proxiedAsked: string[] = [];
    const proxied = new AddressPolicy(
      new URL('https://gw.public.test'),
      true,
      fakeDns(
        {
          'gw.public.test': '93.184.216.34',
          'cdn.test': '93.184.216.35',
          'loop.test': '127.0.0.1',
          'meta.test': '169.254.169.254',
        },
        proxiedAsked,
      ),
    );
    await proxied.checkHost(new URL('https://cdn.test/x.png'));
    await proxied.checkHost(new URL('https://gw.public.test/files/x.png'));
    assert.equal(
      ((await rejectionOf(proxied.checkHost(new URL('http://10.0.0.6/x.png')))) as ImageDownloadError).reason,
      'address',
    );
    for (const link of ['http://loop.test/x.png', 'http://meta.test/latest', 'http://nowhere.test/x.png']) {
      const refused = await rejectionOf(proxied.checkHost(new URL(link)));
      assert.ok(refused instanceof ImageDownloadError && refused.reason === 'address', `${link}: ${String(refused)}`);
    }
    assert.ok(
      proxiedAsked.includes('cdn.test') && proxiedAsked.includes('loop.test'),
      'names are resolved here before the proxy is asked',
    );
    assert.match(
      String(await rejectionOf(proxied.checkHost(new URL('http://nowhere.test/x.png')))),
      /does not resolve here/,
    );
  });
});
