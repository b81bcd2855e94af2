import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { GatewayClient } from '../../src/core/transport/client';
import type { CreditsState } from '../../src/core/account/creditsPresentation';
import type { TestApi } from '../../src/extension/testApi';
import { startConnectProxy } from '../harness/connectProxy';
import { startGateway, type LocalGateway } from '../gateway/index';
import {
  activateExtension,
  clearKeyThroughCommand,
  recordNotifications,
  replace,
  setKeyThroughCommand,
  setSetting,
  waitFor,
} from './extensionHost';
import { closedPort } from '../harness/closedPort';

const SECOND_KEY = 'sim-second-key-0042';
const CHAT_MODEL = 'sim-openai/gpt-sim-mini';

describe('account: credits, connection and catalog against the local gateway', function () {
  this.timeout(60_000);
  let api: TestApi;
  let gateway: LocalGateway;

  const state = (): CreditsState => api.credits.state;
  const settled = (s: CreditsState): boolean => s.kind !== 'loading';
  const refreshed = async (): Promise<CreditsState> => {
    await api.credits.refresh();
    return waitFor(state, settled, 'a settled credits state');
  };
  const credits = (s: CreditsState): number => (s.kind === 'ok' ? s.reading.credits : NaN);

  before(async () => {
    api = await activateExtension();
    gateway = await startGateway({ keys: { [SECOND_KEY]: { credits: 3 } } });
  });

  after(async () => {
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await vscode.workspace.getConfiguration('http').update('proxy', undefined, vscode.ConfigurationTarget.Global);
    await gateway?.stop();
  });

  it('says what is missing before the gateway and the key are set', async () => {
    await setSetting('baseUrl', undefined);
    await waitFor(
      () => api.creditsItem.presentation?.text,
      (text) => text === '$(gear) Configure gateway',
      'Configure gateway',
    );
    await setSetting('baseUrl', gateway.url);
    await waitFor(
      () => api.creditsItem.presentation?.text,
      (text) => text === '$(key) Set API key',
      'Set API key',
    );
  });

  it('shows the balance from /quota once the key is set', async () => {
    await setKeyThroughCommand(gateway.apiKey);
    const shown = await waitFor(state, (s) => s.kind === 'ok', 'the balance');
    assert.equal(credits(shown), gateway.credits(gateway.apiKey));
    assert.match(api.creditsItem.presentation?.text ?? '', /^\$\(credit-card\) \$\d+\.\d\d$/);
    assert.match(api.creditsItem.presentation?.tooltip ?? '', /resets in/);
  });

  it('shows the balance falling after model requests (debounced refresh after use)', async () => {
    const before = credits(await refreshed());
    const client = api.connection.setup.client!;
    for (let i = 0; i < 3; i++) {
      await client.chat.create({
        model: CHAT_MODEL,
        messages: [{ role: 'user', content: `Write a long answer about streams, number ${i}.` }],
      });
      api.connection.reportModelUse();
    }
    const after = await waitFor(state, (s) => s.kind === 'ok' && s.reading.credits < before, 'a lower balance');
    assert.ok(credits(after) < before);
    assert.equal(credits(after), gateway.credits(gateway.apiKey));
    assert.ok(api.credits.spend().session > 0, 'spend this session is measured');
    await waitFor(
      () => api.creditsItem.presentation?.tooltip ?? '',
      (tooltip) =>
        /Spent this session: \$0\.0*[1-9]|Spent this session: \$[1-9]|Spent this session: <\$0\.01/.test(tooltip),
      'the spend in the tooltip',
    );
  });

  it('colours the balance under the thresholds and notifies once when it gets low', async () => {
    const notes = recordNotifications();
    try {
      await setSetting('credits.warningThreshold', 1000);
      await refreshed();
      await refreshed();
      assert.equal(api.creditsItem.presentation?.severity, 'warning');
      const low = notes.shown.filter((n) => n.kind === 'warning' && /credits are low/.test(n.message));
      assert.equal(low.length, 1, 'one notification for one crossing');
      await setSetting('credits.errorThreshold', 1000);
      await refreshed();
      assert.equal(api.creditsItem.presentation?.severity, 'error');
    } finally {
      notes.restore();
      await setSetting('credits.warningThreshold', undefined);
      await setSetting('credits.errorThreshold', undefined);
    }
    await refreshed();
    assert.equal(api.creditsItem.presentation?.severity, 'normal');
  });

  it('applies a changed key at once, without reload', async () => {
    await setKeyThroughCommand(SECOND_KEY);
    const shown = await waitFor(state, (s) => s.kind === 'ok' && s.reading.credits === 3, "the second key's balance");
    assert.equal(credits(shown), 3);
    await setKeyThroughCommand(gateway.apiKey);
    await waitFor(state, (s) => s.kind === 'ok' && s.reading.credits !== 3, "the first key's balance again");
  });

  it('reports out of credits once, with the reset time, when a request is refused', async () => {
    await refreshed();
    const saved = gateway.credits(gateway.apiKey);
    gateway.setCredits(gateway.apiKey, 0);
    const notes = recordNotifications();
    try {
      for (let i = 0; i < 2; i++) {
        const error = await api.connection.setup
          .client!.chat.create({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'hi' }] })
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        // The extension's client is bundled with its own copy of the error classes: compare by name.
        assert.ok(
          error instanceof Error &&
            error.name === 'RateLimitError' &&
            (error as { quotaExhausted?: boolean }).quotaExhausted,
          `the gateway refuses: out of credits (got ${String(error)})`,
        );
        api.connection.reportFailure(error);
      }
      assert.equal(state().kind, 'outOfCredits');
      assert.equal(api.creditsItem.presentation?.text, '$(error) Out of credits');
      const out = notes.shown.filter((n) => n.kind === 'error' && /out of credits/.test(n.message));
      assert.equal(out.length, 1, 'notified once');
      assert.match(out[0]!.message, /window resets/);
      const zero = await refreshed();
      assert.equal(zero.kind, 'ok');
      assert.equal(api.creditsItem.presentation?.text, '$(credit-card) $0.00');
      assert.equal(api.creditsItem.presentation?.severity, 'error');
    } finally {
      notes.restore();
      gateway.setCredits(gateway.apiKey, saved);
    }
  });

  it('says when credits return even when no balance was read before the refusal (one bounded read)', async () => {
    // A gateway that was down when the address was set: no reading of this account exists.
    const port = await closedPort();
    await setSetting('baseUrl', `http://127.0.0.1:${port}`);
    await waitFor(state, (s) => s.kind === 'offline' && s.last === undefined, 'offline, with no reading');
    const empty = await startGateway({ port, demoCredits: 0 });
    const notes = recordNotifications();
    try {
      const error = await api.connection.setup
        .client!.chat.create({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'hi' }] })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      assert.ok(
        error instanceof Error && error.name === 'RateLimitError',
        `refused for lack of credits (got ${String(error)})`,
      );
      api.connection.reportFailure(error);
      const shown = await waitFor(
        () => notes.shown.filter((n) => n.kind === 'error' && /out of credits/.test(n.message)),
        (out) => out.length > 0,
        'the out-of-credits notice',
      );
      assert.match(shown[0]!.message, /New credits when the window resets \(resets in .+\)/);
      assert.equal(empty.requests.filter((r) => r.path === '/api/v1/quota').length, 1, 'one quota read for the notice');
      assert.equal(state().kind, 'outOfCredits');
      const last = (state() as { last?: { credits: number } }).last;
      assert.equal(last?.credits, 0, 'the reading is kept as the last known one');
      assert.match(api.creditsItem.presentation?.tooltip ?? '', /Window resets in/);
    } finally {
      notes.restore();
      await setSetting('baseUrl', gateway.url);
      await empty.stop();
      await waitFor(state, (s) => s.kind === 'ok', 'back on the main gateway');
    }
  });

  it('shows a refused key as such, never as a number', async () => {
    await setKeyThroughCommand('sim-not-a-valid-key');
    const shown = await waitFor(state, (s) => s.kind === 'badKey', 'the bad key state');
    assert.equal(shown.kind, 'badKey');
    assert.equal(api.creditsItem.presentation?.text, '$(error) Invalid API key');
    await setKeyThroughCommand(gateway.apiKey);
    await waitFor(state, (s) => s.kind === 'ok', 'the balance again');
  });

  it('keeps the last known balance, marked stale, when the gateway goes offline', async () => {
    const other = await startGateway();
    try {
      await setSetting('baseUrl', other.url);
      await waitFor(
        state,
        (s) => s.kind === 'ok' && s.reading.credits === other.credits(other.apiKey),
        "the other gateway's balance",
        20_000,
      ).catch(async () => {
        // The demo key is the same on both gateways; the reading must come from `other`.
        await refreshed();
      });
      await other.stop();
      const offline = await refreshed();
      assert.equal(offline.kind, 'offline');
      assert.match(api.creditsItem.presentation?.text ?? '', /^\$\(debug-disconnect\) Offline: \$\d/);
      assert.match(api.creditsItem.presentation?.label ?? '', /gateway is unreachable; last known balance \$\d/);
      assert.match(api.creditsItem.presentation?.tooltip ?? '', /last known/);
      // Test Connection's words for why: the port no longer answers.
      assert.match(api.creditsItem.presentation?.tooltip ?? '', /(refused|closed) the connection\. /);
    } finally {
      await other.stop().catch(() => undefined);
      await setSetting('baseUrl', gateway.url);
      await waitFor(state, (s) => s.kind === 'ok', 'back online');
    }
  });

  it('tests the connection: model count and balance when it works', async () => {
    const notes = recordNotifications();
    try {
      const report = await vscode.commands.executeCommand<{ ok: boolean; modelCount?: number; credits?: number }>(
        'unifiedInference.testConnection',
      );
      assert.equal(report.ok, true);
      const models = await new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey }).models.list();
      assert.equal(report.modelCount, models.length);
      assert.equal(report.credits, gateway.credits(gateway.apiKey));
      assert.ok(notes.shown.some((n) => n.kind === 'info' && n.message.includes(`${models.length} models`)));
      // Said in the status bar too, where the connection is shown (and its menu ran the test).
      assert.equal(api.creditsItem.presentation?.text, `$(check) Connected: ${models.length} models`);
      assert.match(api.creditsItem.presentation?.label ?? '', /connection test passed/);
    } finally {
      notes.restore();
    }
  });

  async function failingTest(baseUrl: string | undefined, key?: string): Promise<{ kind: string; message: string }> {
    const notes = recordNotifications();
    try {
      if (baseUrl) await setSetting('baseUrl', baseUrl);
      if (key) await setKeyThroughCommand(key);
      await waitFor(
        () => api.connection.setup.baseUrl,
        (url) => url === (baseUrl ?? gateway.url),
        'the new address',
      );
      const report = await vscode.commands.executeCommand<{ ok: boolean; diagnosis?: { kind: string } }>(
        'unifiedInference.testConnection',
      );
      assert.equal(report.ok, false);
      const error = notes.shown.find((n) => n.kind === 'error');
      assert.ok(error, 'an error notification was shown');
      assert.equal(api.creditsItem.presentation?.text, '$(error) Connection failed', 'said in the status bar too');
      return { kind: report.diagnosis?.kind ?? '', message: error.message };
    } finally {
      notes.restore();
      await setSetting('baseUrl', gateway.url);
      if (key) await setKeyThroughCommand(gateway.apiKey);
    }
  }

  it('tests the connection: a refused port is named, with the next step', async () => {
    const port = await closedPort();
    const { kind, message } = await failingTest(`http://127.0.0.1:${port}`);
    assert.equal(kind, 'refused');
    assert.match(
      message,
      new RegExp(
        `^Unified Inference: 127\\.0\\.0\\.1:${port} refused the connection\\. .* Start the gateway, or correct the port in the base URL setting\\.$`,
      ),
    );
  });

  it('tests the connection: a refused key (401)', async () => {
    const { kind, message } = await failingTest(undefined, 'sim-not-a-valid-key');
    assert.equal(kind, 'unauthorized');
    assert.ok(!message.includes('sim-not-a-valid-key'), 'the key is not in the message');
  });

  it('tests the connection: an address that does not serve /api/v1 (404)', async () => {
    const { kind } = await failingTest(`${gateway.url}/not-the-gateway`);
    assert.equal(kind, 'notFound');
  });

  it("goes through the proxy in VS Code's http.proxy setting", async () => {
    const proxy = await startConnectProxy();
    try {
      await vscode.workspace.getConfiguration('http').update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
      await waitFor(
        () => api.connection.setup.proxy,
        (p) => p !== undefined,
        'the proxy to be in use',
      );
      const report = await vscode.commands.executeCommand<{ ok: boolean }>('unifiedInference.testConnection');
      assert.equal(report.ok, true);
      const host = new URL(gateway.url).host;
      assert.ok(
        [...proxy.connects, ...proxy.requests].some((target) => target.includes(host)),
        `the proxy carried the requests (saw ${JSON.stringify([...proxy.connects, ...proxy.requests])})`,
      );
    } finally {
      await vscode.workspace.getConfiguration('http').update('proxy', undefined, vscode.ConfigurationTarget.Global);
      await waitFor(
        () => api.connection.setup.proxy,
        (p) => p === undefined,
        'no proxy',
      );
      await proxy.stop();
    }
  });

  it('groups the catalog by category and provider, and filters it', async () => {
    await api.catalog.refresh();
    const groups = api.models.groups();
    for (const category of ['chat', 'embedding', 'rerank', 'transcription', 'speech', 'image']) {
      assert.ok(
        groups.some((g) => g.category === category),
        `${category} models are listed`,
      );
    }
    assert.ok(
      api.catalog.snapshot && api.catalog.snapshot.fetchedAt <= Date.now(),
      'the catalog is cached with a time stamp',
    );
    const first = api.catalog.snapshot.models[0]!;
    assert.equal(api.catalog.model(first.id), first, 'a model is found by its id');
    assert.equal(api.catalog.model('no-such/model'), undefined, 'an id the catalog does not list finds none');
    api.models.setFilter('embedding');
    assert.deepEqual(
      api.models.groups().map((g) => g.category),
      ['embedding'],
    );
    api.models.setFilter('');
  });

  it("a model's tooltip: its fields in words, not the catalog's JSON", async () => {
    await api.catalog.refresh();
    const node = api.models
      .getChildren()
      .flatMap((category) => api.models.getChildren(category))
      .flatMap((provider) => api.models.getChildren(provider))
      .find((child) => child.kind === 'model' && child.model.id === 'sim-openai/gpt-sim-mini');
    assert.ok(node, 'the model is in the view');
    const tooltip = api.models.getTreeItem(node).tooltip;
    assert.ok(tooltip instanceof vscode.MarkdownString, 'a markdown tooltip');
    assert.ok(!tooltip.isTrusted, 'untrusted: no command links');
    assert.ok(!tooltip.supportHtml, 'no HTML');
    assert.equal(
      tooltip.value,
      [
        '**sim-openai/gpt-sim-mini**',
        '',
        '**Provider:** sim-openai  ',
        '**Category:** Chat  ',
        '**Status:** operational  ',
        '**Context:** 128,000 tokens  ',
        '**Price:** $0.15 in / $0.60 out per million tokens',
      ].join('\n'),
    );
  });

  it('picks a default model per category from the catalog', async () => {
    let offered: string[] = [];
    const restore = replace(vscode.window, 'showQuickPick', (async (items: readonly vscode.QuickPickItem[]) => {
      offered = items.filter((item) => item.kind !== vscode.QuickPickItemKind.Separator).map((item) => item.label);
      return items.find((item) => item.label.includes('text-embedding-sim-large'));
    }) as unknown as typeof vscode.window.showQuickPick);
    try {
      const picked = await vscode.commands.executeCommand<string>('unifiedInference.pickDefaultEmbeddingModel');
      assert.match(picked, /text-embedding-sim-large/);
      assert.ok(
        offered.every((label) => /embed|Show all|Clear/.test(label)),
        `only embedding models offered: ${offered.join(', ')}`,
      );
      assert.equal(vscode.workspace.getConfiguration('unifiedInference').get('defaultModels.embedding'), picked);
    } finally {
      restore();
      await vscode.workspace
        .getConfiguration('unifiedInference')
        .update('defaultModels.embedding', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('re-renders the status item when a threshold changes, without rebuilding the connection', async () => {
    await refreshed();
    let rebuilt = 0;
    const listener = api.connection.onDidChange(() => rebuilt++);
    const quotaReads = gateway.requests.filter((r) => r.path === '/api/v1/quota').length;
    try {
      await setSetting('credits.warningThreshold', 1000);
      await waitFor(
        () => api.creditsItem.presentation?.severity,
        (severity) => severity === 'warning',
        'the warning colour',
      );
      await setSetting('defaultModels.chat', CHAT_MODEL);
      await setSetting('chat.api', 'messages');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal(rebuilt, 0, 'thresholds, default models and the chat API do not rebuild the connection');
      assert.equal(
        gateway.requests.filter((r) => r.path === '/api/v1/quota').length,
        quotaReads,
        'nor read the balance again',
      );
      await setSetting('extraHeaders', { 'X-Team': 'research' });
      await waitFor(
        () => rebuilt,
        (n) => n === 1,
        'a rebuild for a connection setting',
      );
    } finally {
      listener.dispose();
      await setSetting('credits.warningThreshold', undefined);
      await setSetting('defaultModels.chat', undefined);
      await setSetting('chat.api', undefined);
      await setSetting('extraHeaders', undefined);
    }
    await waitFor(
      () => api.creditsItem.presentation?.severity,
      (severity) => severity === 'normal',
      'the normal colour again',
    );
  });

  it('shows an unreadable CA certificate file in Test Connection and the status bar tooltip', async () => {
    const missing = '/nonexistent/unified-inference-test-ca.pem';
    const notes = recordNotifications();
    try {
      await setSetting('caCertificateFile', missing);
      await waitFor(
        () => api.connection.setup.problem,
        (problem) => problem !== undefined,
        'the setup problem',
      );
      const report = await vscode.commands.executeCommand<{ ok: boolean; setupProblem?: string }>(
        'unifiedInference.testConnection',
      );
      assert.equal(report.ok, true, 'plain http still connects');
      assert.match(report.setupProblem ?? '', /CA certificate file .*unified-inference-test-ca\.pem could not be read/);
      assert.ok(
        notes.shown.some((n) => n.kind === 'warning' && /could not be read/.test(n.message)),
        'the test result says so',
      );
      await waitFor(
        () => api.creditsItem.presentation?.tooltip ?? '',
        (tooltip) => /Connection setup:.*could not be read/.test(tooltip),
        'the tooltip to say so',
      );
    } finally {
      notes.restore();
      await setSetting('caCertificateFile', undefined);
    }
    await waitFor(
      () => api.connection.setup.problem,
      (problem) => problem === undefined,
      'no setup problem',
    );
    await waitFor(
      () => api.creditsItem.presentation?.tooltip ?? '',
      (tooltip) => !/Connection setup/.test(tooltip),
      'the tooltip without it',
    );
  });

  it('shows no cached catalog once the key is cleared (the view offers to set one), and the catalog again with a key', async () => {
    const cached = (await api.catalog.refresh())!.models[0]!.id;
    assert.ok(api.models.groups().length > 0);
    await clearKeyThroughCommand(true);
    await waitFor(
      () => api.models.groups().length,
      (n) => n === 0,
      'an empty Models view',
    );
    assert.equal(api.catalog.snapshot, undefined);
    assert.equal(api.catalog.model(cached), undefined, 'no model of the old catalog is found without a key');
    await setKeyThroughCommand(gateway.apiKey);
    await waitFor(
      () => api.models.groups().length,
      (n) => n > 0,
      'the catalog again',
    );
  });

  it('warns that the key travels in clear text for an http:// address on another machine (Set Gateway Address, tooltip, Test Connection), not for loopback', async () => {
    // No key: nothing is sent to the address (it is never connected to; .invalid never resolves).
    await clearKeyThroughCommand(true);
    const remote = 'http://gateway.invalid:8080';
    let asked: vscode.InputBoxOptions | undefined;
    const notes = recordNotifications();
    const restoreInput = replace(vscode.window, 'showInputBox', async (options?: vscode.InputBoxOptions) => {
      asked = options;
      return remote;
    });
    try {
      assert.equal(await vscode.commands.executeCommand('unifiedInference.setBaseUrl'), true);
      const warning = (await asked?.validateInput?.(remote)) as vscode.InputBoxValidationMessage | undefined;
      assert.equal(
        warning?.severity,
        vscode.InputBoxValidationSeverity.Warning,
        'the input box warns (and still accepts)',
      );
      assert.match(warning?.message ?? '', /clear text/);
      assert.equal(await asked?.validateInput?.('http://127.0.0.1:8080'), undefined, 'loopback is fine');
      assert.equal(await asked?.validateInput?.('https://gateway.example.com'), undefined, 'https is fine');
      assert.ok(
        notes.shown.some((n) => n.kind === 'warning' && /clear text/.test(n.message)),
        'said once it is set',
      );
      await waitFor(
        () => api.connection.setup.problem ?? '',
        (problem) => /gateway\.invalid:8080 is http:\/\/ on another machine.*clear text/.test(problem),
        'the connection problem',
      );
      await waitFor(
        () => api.creditsItem.presentation?.tooltip ?? '',
        (tooltip) => /Connection setup:.*clear text/.test(tooltip),
        'the tooltip to say so',
      );
      const report = await vscode.commands.executeCommand<{ ok: boolean; setupProblem?: string }>(
        'unifiedInference.testConnection',
      );
      assert.match(report.setupProblem ?? '', /clear text/, 'Test Connection says so');
    } finally {
      restoreInput();
      notes.restore();
    }
    await setSetting('baseUrl', gateway.url);
    await waitFor(
      () => api.connection.setup.baseUrl,
      (url) => url === gateway.url,
      'the local gateway again',
    );
    assert.equal(api.connection.setup.problem, undefined, 'a loopback http:// gateway is no problem');
    await setKeyThroughCommand(gateway.apiKey);
  });
});
