// The extension's settings: names, defaults and parsing, in one pure place. The VS Code side
// reads them through src/extension/config.ts; a unit test checks this list against package.json.

export const SETTINGS_SECTION = 'unifiedInference';

export type AuthHeader = 'authorization' | 'x-api-key';

export interface Settings {
  /** The gateway address as the user typed it ('' when not configured). */
  readonly baseUrl: string;
  readonly authHeader: AuthHeader;
}

/** Every setting key (without the section prefix) with its default. */
export const SETTING_DEFAULTS: Settings = {
  baseUrl: '',
  authHeader: 'authorization',
};

export type SettingKey = keyof Settings;

export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as SettingKey[];

/** Turns raw configuration values (any type a user can write in settings.json) into Settings. */
export function parseSettings(read: (key: SettingKey) => unknown): Settings {
  const baseUrl = read('baseUrl');
  const authHeader = read('authHeader');
  return {
    baseUrl: typeof baseUrl === 'string' ? baseUrl.trim() : SETTING_DEFAULTS.baseUrl,
    authHeader: authHeader === 'x-api-key' ? 'x-api-key' : 'authorization',
  };
}
