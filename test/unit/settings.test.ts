import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSettings, SETTING_DEFAULTS, SETTING_KEYS, SETTINGS_SECTION } from '../../src/shared/settings';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { default?: unknown; enum?: unknown[] }> } };
};
const properties = manifest.contributes.configuration.properties;

describe('settings', () => {
  it('has an accessor for every setting in package.json, and the reverse', () => {
    const inManifest = Object.keys(properties).map((key) => key.replace(`${SETTINGS_SECTION}.`, '')).sort();
    assert.deepEqual([...SETTING_KEYS].sort(), inManifest);
  });

  it('uses the same defaults as package.json', () => {
    for (const key of SETTING_KEYS) assert.deepEqual(SETTING_DEFAULTS[key], properties[`${SETTINGS_SECTION}.${key}`]?.default, key);
  });

  it('parses what a user can write, falling back to defaults for wrong types', () => {
    const values: Record<string, unknown> = { baseUrl: '  https://gw.example.com/ ', authHeader: 'x-api-key' };
    assert.deepEqual(parseSettings((key) => values[key]), { baseUrl: 'https://gw.example.com/', authHeader: 'x-api-key' });
    const wrong: Record<string, unknown> = { baseUrl: 42, authHeader: 'Cookie' };
    assert.deepEqual(parseSettings((key) => wrong[key]), SETTING_DEFAULTS);
  });
});
