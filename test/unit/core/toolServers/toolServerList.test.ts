// Which tool servers VS Code's agent is offered (the pure part of the MCP definition provider).
import * as assert from 'node:assert/strict';
import { parseSettings } from '../../../../src/shared/settings';
import { MAX_OFFERED_TOOL_SERVERS, toolServerListing } from '../../../../src/core/toolServers/toolServerList';

describe("tool servers offered to VS Code's agent", () => {
  it('offers plain http(s) addresses with readable, unique labels', () => {
    const listing = toolServerListing([
      'https://tools.example.com/mcp',
      'http://127.0.0.1:8123/',
      'https://tools.example.com/mcp/',
      'https://tools.example.com/mcp#part',
    ]);
    assert.deepEqual(listing.offered, [
      { label: 'tools.example.com/mcp', uri: 'https://tools.example.com/mcp' },
      { label: '127.0.0.1:8123', uri: 'http://127.0.0.1:8123/' },
      { label: 'tools.example.com/mcp (2)', uri: 'https://tools.example.com/mcp/' },
    ]);
    assert.deepEqual(listing.skipped, [], 'a fragment-only twin is the same server');
  });

  it('leaves addresses with credentials to the gateway, without repeating the password', () => {
    const listing = toolServerListing([
      'https://alice:s3cret@tools.example.com/mcp',
      'https://token@other.example/mcp',
      'https://third.example/mcp?key=QSECRET',
      'https://bob:pw9@bad.example:99999/mcp',
    ]);
    assert.deepEqual(listing.offered, []);
    assert.equal(listing.skipped.length, 4);
    assert.ok(listing.skipped.slice(0, 3).every((entry) => /credentials/.test(entry.reason)));
    assert.equal(listing.skipped[3]?.reason, 'not a valid URL');
    for (const secret of ['s3cret', 'token@', 'QSECRET', 'pw9'])
      assert.ok(!JSON.stringify(listing).includes(secret), JSON.stringify(listing));
  });

  it('skips what is not an http(s) URL, and bounds the list', () => {
    assert.deepEqual(toolServerListing(['ftp://x.example/mcp', 'http://', 'https://[::1']).offered, []);
    assert.equal(toolServerListing(['ftp://x.example/mcp']).skipped[0]?.reason, 'not an http or https address');
    const many = Array.from({ length: MAX_OFFERED_TOOL_SERVERS + 3 }, (_, i) => `https://t${i}.example/mcp`);
    const listing = toolServerListing(many);
    assert.equal(listing.offered.length, MAX_OFFERED_TOOL_SERVERS);
    assert.equal(listing.skipped.length, 3);
  });

  it('takes the setting as parseSettings leaves it (strings, http(s), each once)', () => {
    const settings = parseSettings((key) =>
      key === 'chat.mcpServers'
        ? [' https://a.example/mcp ', 7, 'javascript:alert(1)', 'https://a.example/mcp', null]
        : undefined,
    );
    assert.deepEqual(
      toolServerListing(settings.chat.mcpServers).offered.map((entry) => entry.uri),
      ['https://a.example/mcp'],
    );
  });
});
