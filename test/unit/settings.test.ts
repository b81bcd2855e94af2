import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  affectsConnection,
  parseSettings,
  SETTING_DEFAULTS,
  SETTINGS_SECTION,
  USER_ONLY_SETTING_KEYS,
} from '../../src/shared/settings';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: {
    configuration: { properties: Record<string, { default?: unknown; enum?: unknown[]; scope?: string }> };
  };
  capabilities?: {
    untrustedWorkspaces?: { supported?: unknown; restrictedConfigurations?: string[] };
    virtualWorkspaces?: { supported?: unknown };
  };
};
const properties = manifest.contributes.configuration.properties;
const SETTING_KEYS = Object.keys(SETTING_DEFAULTS);

describe('settings', () => {
  it('has an accessor for every setting in package.json, and the reverse', () => {
    const inManifest = Object.keys(properties)
      .map((key) => key.replace(`${SETTINGS_SECTION}.`, ''))
      .sort();
    assert.deepEqual([...SETTING_KEYS].sort(), inManifest);
  });

  it('keeps where requests and the key go out of workspace settings (application scope)', () => {
    for (const key of [
      'baseUrl',
      'authHeader',
      'extraHeaders',
      'caCertificateFile',
      'chat.mcpServers',
      'checkpoints.maxStorageMB',
      // A workspace must not raise (or remove) the user's spend cap, nor hide the estimate beside Send.
      'chat.maxSpendPerReply',
      'chat.costEstimateThreshold',
      'completions.enabled',
      'completions.model',
      'completions.languages',
      'completions.debounceMs',
    ]) {
      assert.ok(USER_ONLY_SETTING_KEYS.includes(key), `${key} is read from user settings only`);
    }
    for (const key of USER_ONLY_SETTING_KEYS)
      assert.equal(properties[`${SETTINGS_SECTION}.${key}`]?.scope, 'application', key);
    // Every other setting a workspace may still set is either harmless or restricted in untrusted folders.
    const restricted = manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? [];
    assert.equal(manifest.capabilities?.untrustedWorkspaces?.supported, 'limited');
    assert.ok(manifest.capabilities?.virtualWorkspaces?.supported !== undefined, 'virtual workspaces are declared');
    for (const key of restricted) assert.ok(properties[key], `restricted setting ${key} exists`);
    for (const key of SETTING_KEYS.filter((k) => k.startsWith('defaultModels.')))
      assert.ok(
        restricted.includes(`${SETTINGS_SECTION}.${key}`),
        `${key}: a workspace must not pick a costlier model in Restricted Mode`,
      );
  });

  it('uses the same defaults as package.json', () => {
    for (const key of SETTING_KEYS)
      assert.deepEqual(SETTING_DEFAULTS[key], properties[`${SETTINGS_SECTION}.${key}`]?.default, key);
  });

  it('parses what a user can write', () => {
    const values: Record<string, unknown> = {
      baseUrl: '  https://gw.example.com/ ',
      authHeader: 'x-api-key',
      extraHeaders: { 'X-Team': 'research' },
      caCertificateFile: '/etc/ca.pem',
      'credits.refreshIntervalMinutes': 10,
      'credits.warningThreshold': 20,
      'credits.errorThreshold': 2,
      'defaultModels.chat': 'sim-openai/gpt-sim-mini',
    };
    const settings = parseSettings((key) => values[key]);
    assert.equal(settings.baseUrl, 'https://gw.example.com/');
    assert.equal(settings.authHeader, 'x-api-key');
    assert.deepEqual(settings.extraHeaders, { 'X-Team': 'research' });
    assert.equal(settings.caCertificateFile, '/etc/ca.pem');
    assert.deepEqual(settings.credits, { refreshIntervalMinutes: 10, warningThreshold: 20, errorThreshold: 2 });
    assert.equal(settings.defaultModels.chat, 'sim-openai/gpt-sim-mini');
    assert.equal(settings.defaultModels.image, '');
  });

  it('falls back to defaults for wrong types, and clamps what is out of range', () => {
    const wrong: Record<string, unknown> = {
      baseUrl: 42,
      authHeader: 'Cookie',
      extraHeaders: ['x'],
      'credits.refreshIntervalMinutes': 0,
      'credits.warningThreshold': 'five',
      'credits.errorThreshold': 50,
      'defaultModels.chat': null,
    };
    const settings = parseSettings((key) => wrong[key]);
    assert.equal(settings.baseUrl, '');
    assert.equal(settings.authHeader, 'authorization');
    assert.deepEqual(settings.extraHeaders, {});
    assert.equal(settings.credits.refreshIntervalMinutes, 1, 'at least a minute between refreshes');
    assert.equal(settings.credits.warningThreshold, 5);
    assert.equal(settings.credits.errorThreshold, 5, 'the error threshold never exceeds the warning one');
    assert.equal(settings.defaultModels.chat, '');
  });

  it('keeps only category overrides that name a known category', () => {
    const values: Record<string, unknown> = {
      'models.categoryOverrides': {
        'anthropic/sonnet-4.5': 'Chat',
        'x/y': 'embedding',
        'x/typo': 'embeddings',
        'x/n': 3,
        ' ': 'chat',
      },
    };
    assert.deepEqual(
      { ...parseSettings((key) => values[key]).categoryOverrides },
      { 'anthropic/sonnet-4.5': 'chat', 'x/y': 'embedding' },
    );
    assert.deepEqual({ ...parseSettings(() => ['chat']).categoryOverrides }, {});
    assert.ok(
      manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations?.includes(
        `${SETTINGS_SECTION}.models.categoryOverrides`,
      ),
      'a workspace must not move models in Restricted Mode',
    );
  });

  it('drops extra headers that could break a request', () => {
    const values: Record<string, unknown> = {
      extraHeaders: { 'Good-Name': 'v', 'Bad Name': 'v', 'X-Split': 'a\r\nInjected: 1', 'X-Number': 5 },
    };
    assert.deepEqual(parseSettings((key) => values[key]).extraHeaders, { 'Good-Name': 'v' });
  });

  it('rebuilds the connection only for the settings it is built from', () => {
    // As VS Code's affectsConfiguration answers for one changed key: the key itself and its parents.
    const changed =
      (key: string) =>
      (section: string): boolean =>
        key === section || key.startsWith(`${section}.`);
    const rebuilding = SETTING_KEYS.filter((key) => affectsConnection(changed(`${SETTINGS_SECTION}.${key}`))).sort();
    assert.deepEqual(rebuilding, ['authHeader', 'baseUrl', 'caCertificateFile', 'extraHeaders']);
    for (const key of ['http.proxy', 'http.proxyStrictSSL', 'http.noProxy'])
      assert.equal(affectsConnection(changed(key)), true, key);
    for (const key of [
      'http.proxySupport',
      'editor.fontSize',
      `${SETTINGS_SECTION}.credits.warningThreshold`,
      `${SETTINGS_SECTION}.defaultModels.chat`,
      `${SETTINGS_SECTION}.chat.api`,
    ]) {
      assert.equal(affectsConnection(changed(key)), false, key);
    }
  });

  it('inline completions: off by default, a language map of booleans, a clamped debounce; user settings only: no workspace may turn them on, pick the model or the pace', () => {
    const defaults = parseSettings(() => undefined).completions;
    assert.deepEqual(
      { ...defaults, languages: { ...defaults.languages } },
      {
        enabled: false,
        model: '',
        languages: { '*': true, plaintext: false, markdown: false, scminput: false },
        debounceMs: 250,
      },
    );
    const values: Record<string, unknown> = {
      'completions.enabled': 'yes',
      'completions.languages': { python: false, go: 'no', ' ': true },
      'completions.debounceMs': 5,
    };
    const parsed = parseSettings((key) => values[key]).completions;
    assert.equal(parsed.enabled, false);
    assert.deepEqual({ ...parsed.languages }, { python: false });
    assert.equal(parsed.debounceMs, 50);
    for (const key of ['enabled', 'model', 'languages', 'debounceMs']) {
      assert.ok(USER_ONLY_SETTING_KEYS.includes(`completions.${key}`), key);
      assert.equal(properties[`${SETTINGS_SECTION}.completions.${key}`]?.scope, 'application', key);
    }
  });
});
