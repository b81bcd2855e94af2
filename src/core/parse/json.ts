// Small readers for unknown JSON. All parsing of server data goes through src/core/parse/, which
// turns `unknown` into the typed shapes of src/core/types/; nothing else looks at raw JSON.

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown): JsonRecord {
  return isRecord(value) ? value : {};
}

/**
 * The fields of an object literal, or undefined for anything else. A command's own arguments are
 * an object literal; what a menu hands a command (the editor's Uri, a tree item, a source control)
 * is an instance of a class, whose fields (a Uri's `query`) must not be read as arguments.
 */
export function plainRecord(value: unknown): JsonRecord | undefined {
  return isRecord(value) && Object.getPrototypeOf(value) === Object.prototype ? value : undefined;
}

/** A number that is one (not NaN, not infinite): JSON cannot hold those, but a JS value can. */
export function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A string, or a number turned into one (ids and codes arrive as either). */
export function strOrNum(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isFiniteNumber(value)) return String(value);
  return undefined;
}

export function num(value: unknown): number | undefined {
  if (isFiniteNumber(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function bool(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** JSON.parse that answers undefined instead of throwing. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
