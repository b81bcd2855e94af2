// package.json shows no English of its own: every user-facing text is a %key% that
// package.nls.json resolves, so a translator's package.nls.<locale>.json covers the whole manifest.
import * as assert from 'node:assert/strict';
import { NLS_PLACEHOLDER, readNls, readRawManifest } from './manifest';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every string in the manifest with its JSON path (e.g. contributes.commands[3].title). */
function strings(value: Json, path = ''): { path: string; value: string }[] {
  if (typeof value === 'string') return [{ path, value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => strings(item, `${path}[${i}]`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => strings(item, path ? `${path}.${key}` : key));
  return [];
}

// The fields VS Code shows a person (paths with [] for any index, * for any key, ** for a
// key with dots such as a setting's id). Ids, when
// clauses, icons, tool input schemas (read by models, in the tools' own terms) are not here.
const USER_FACING: RegExp[] = [
  'displayName',
  'description',
  'capabilities.(untrustedWorkspaces|virtualWorkspaces).description',
  'contributes.commands[].(title|shortTitle|category)',
  'contributes.configuration.title',
  'contributes.configuration[].title',
  'contributes.configuration(|[]).properties.**.(description|markdownDescription|deprecationMessage|markdownDeprecationMessage)',
  'contributes.configuration(|[]).properties.**.(enumDescriptions|markdownEnumDescriptions|enumItemLabels)[]',
  'contributes.viewsContainers.*[].title',
  'contributes.views.*[].(name|contextualTitle)',
  'contributes.viewsWelcome[].contents',
  'contributes.walkthroughs[].(title|description)',
  'contributes.walkthroughs[].steps[].(title|description|media.altText)',
  'contributes.languageModelTools[].(displayName|userDescription|modelDescription)',
  'contributes.languageModelToolSets[].(displayName|description)',
  'contributes.chatParticipants[].(fullName|description)',
  'contributes.chatParticipants[].commands[].description',
  'contributes.chatParticipants[].disambiguation[].description',
  'contributes.menus.*[].(title|label|alt)',
  'contributes.submenus[].label',
  'contributes.mcpServerDefinitionProviders[].label',
  'contributes.languageModelChatProviders[].displayName',
].map(
  (pattern) =>
    new RegExp(
      `^${pattern.replace(/\./g, '\\.').replace(/\[\]/g, '\\[\\d+\\]').replace(/\*\*/g, '.+').replace(/\*/g, '[^.\\[]+')}$`,
    ),
);

/** The user-facing fields that hold a literal text instead of a %key%. */
function literals(manifest: Json): string[] {
  return strings(manifest)
    .filter(({ path, value }) => USER_FACING.some((pattern) => pattern.test(path)) && !NLS_PLACEHOLDER.test(value))
    .map(({ path, value }) => `${path}: ${JSON.stringify(value)}`);
}

describe('package.json localization (package.nls.json)', () => {
  const manifest = readRawManifest() as Json;
  const nls = readNls();
  const used = strings(manifest).flatMap(({ path, value }) => {
    const key = NLS_PLACEHOLDER.exec(value)?.[1];
    return key === undefined ? [] : [{ path, key }];
  });

  it('resolves every %key% in package.json', () => {
    const missing = used.filter(({ key }) => !Object.hasOwn(nls, key)).map(({ path, key }) => `${path}: %${key}%`);
    assert.deepEqual(missing, []);
    assert.ok(used.length > 100, `package.json uses its placeholders (${used.length})`);
  });

  it('has no key package.json does not use, and only non-empty texts', () => {
    const usedKeys = new Set(used.map(({ key }) => key));
    assert.deepEqual(
      Object.keys(nls).filter((key) => !usedKeys.has(key)),
      [],
    );
    for (const [key, text] of Object.entries(nls)) {
      assert.match(key, /^[\w.-]+$/, `${key}: VS Code only replaces keys of word characters, dots and dashes`);
      assert.ok(typeof text === 'string' && text.trim() !== '', `${key} has a text`);
    }
  });

  it('has no literal text in a field a user sees', () => {
    assert.deepEqual(literals(manifest), []);
  });

  it('names the path of a new literal (the check above can fail)', () => {
    const changed = structuredClone(manifest) as {
      contributes: {
        commands: { title: string }[];
        configuration: { properties: Record<string, { markdownDescription?: string }> };
      };
    };
    changed.contributes.commands[0]!.title = 'Set API Key';
    const [firstSetting] = Object.keys(changed.contributes.configuration.properties);
    changed.contributes.configuration.properties[firstSetting!]!.markdownDescription = 'The gateway address.';
    assert.deepEqual(literals(changed as unknown as Json), [
      'contributes.commands[0].title: "Set API Key"',
      `contributes.configuration.properties.${firstSetting}.markdownDescription: "The gateway address."`,
    ]);
  });
});
