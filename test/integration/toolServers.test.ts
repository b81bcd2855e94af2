// The user's tool servers (unifiedInference.chat.mcpServers) as VS Code's MCP API sees them: the
// definition provider called as VS Code calls it, and the definitions VS Code lists to other
// extensions (vscode.lm.mcpServerDefinitions, a proposal the consumer test extension declares;
// the VS Code server of the test host, 1.139, has it).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension/testApi';
import { TOOL_SERVER_PROVIDER_ID } from '../../src/extension/toolServers/toolServerProvider';
import { activateExtension, setSetting, waitFor } from './extensionHost';

const CONSUMER_ID = 'unified-inference-tests.lm-consumer';

interface ListedServer {
  readonly label: string;
  readonly uri?: string;
  readonly headers?: Record<string, string>;
  readonly command?: string;
}

interface Consumer {
  mcpServerDefinitions(): ListedServer[] | undefined;
}

const TOOLS = 'https://tools.example.test/mcp';
const LOCAL = 'http://127.0.0.1:9/mcp';
const WITH_PASSWORD = 'https://alice:hunter2@secret.example.test/mcp';

describe("the tool servers in VS Code's MCP API", function () {
  this.timeout(60_000);
  let api: TestApi;
  let consumer: Consumer;

  before(async () => {
    api = await activateExtension();
    const extension = vscode.extensions.getExtension<Consumer>(CONSUMER_ID);
    assert.ok(extension, `${CONSUMER_ID} is loaded beside the extension (runIntegration)`);
    consumer = await extension.activate();
  });

  after(async () => {
    await setSetting('chat.mcpServers', undefined);
  });

  it('declares the provider in package.json with the id it registers', () => {
    const manifest = vscode.extensions.getExtension('unified-inference.unified-inference')!.packageJSON as {
      contributes: { mcpServerDefinitionProviders?: { id: string; label: string }[] };
    };
    assert.deepEqual(
      manifest.contributes.mcpServerDefinitionProviders?.map((p) => p.id),
      [TOOL_SERVER_PROVIDER_ID],
    );
    assert.equal(api.toolServers.registered, true, 'this VS Code has vscode.lm.registerMcpServerDefinitionProvider');
  });

  it("offers the user's plain http(s) tool servers without headers, follows the setting, and lists them through vscode.lm.mcpServerDefinitions", async () => {
    let changes = 0;
    const listener = api.toolServers.onDidChangeMcpServerDefinitions(() => changes++);
    try {
      await setSetting('chat.mcpServers', [TOOLS, LOCAL, WITH_PASSWORD]);
      await waitFor(
        () => changes,
        (count) => count > 0,
        'the provider announcing the change',
      );

      // The provider, called as VS Code calls it.
      const provided = api.toolServers.provideMcpServerDefinitions();
      assert.deepEqual(
        provided.map((server) => [server.label, server.uri.toString(true)]),
        [
          ['tools.example.test/mcp', TOOLS],
          ['127.0.0.1:9/mcp', LOCAL],
        ],
      );
      for (const server of provided) {
        assert.ok(server instanceof vscode.McpHttpServerDefinition);
        assert.deepEqual({ ...server.headers }, {}, 'no header of ours (never the key) goes to a third-party server');
      }
      const resolved = api.toolServers.resolveMcpServerDefinition(provided[0]!);
      assert.equal(resolved?.uri.toString(true), TOOLS);
      assert.deepEqual({ ...resolved?.headers }, {});

      // What VS Code lists to extensions (and its agent uses).
      const listed = consumer.mcpServerDefinitions();
      assert.ok(listed, 'this VS Code exposes vscode.lm.mcpServerDefinitions to an extension declaring the proposal');
      const ours = await waitFor(
        () => (consumer.mcpServerDefinitions() ?? []).filter((server) => server.uri === TOOLS || server.uri === LOCAL),
        (servers) => servers.length === 2,
        'both tool servers in vscode.lm.mcpServerDefinitions',
      );
      assert.deepEqual(ours.map((server) => server.label).sort(), ['127.0.0.1:9/mcp', 'tools.example.test/mcp']);
      for (const server of ours) assert.deepEqual(server.headers ?? {}, {}, `${server.label} has no headers`);
      const all = JSON.stringify(consumer.mcpServerDefinitions());
      assert.ok(
        !all.includes('secret.example.test') && !all.includes('hunter2'),
        'an address with a password stays with the gateway',
      );

      // A server the user removes goes from VS Code's list, and is not started if VS Code still holds it.
      const before = changes;
      await setSetting('chat.mcpServers', [LOCAL]);
      await waitFor(
        () => changes,
        (count) => count > before,
        'the second change',
      );
      await waitFor(
        () => (consumer.mcpServerDefinitions() ?? []).some((server) => server.uri === TOOLS),
        (present) => !present,
        'the removed server gone from vscode.lm.mcpServerDefinitions',
      );
      assert.equal(
        api.toolServers.resolveMcpServerDefinition(provided[0]!),
        undefined,
        'a removed server is not started',
      );
      assert.ok(
        (consumer.mcpServerDefinitions() ?? []).some((server) => server.uri === LOCAL),
        'the remaining one stays',
      );

      await setSetting('chat.mcpServers', undefined);
      await waitFor(
        () => (consumer.mcpServerDefinitions() ?? []).some((server) => server.uri === LOCAL),
        (present) => !present,
        'an empty list',
      );
      assert.deepEqual(api.toolServers.provideMcpServerDefinitions(), []);
    } finally {
      listener.dispose();
    }
  });
});
