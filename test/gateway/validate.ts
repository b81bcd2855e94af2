import { badRequest } from './errors';

/** A parsed JSON object body; fields are read through the helpers below so every rejection names its field. */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireString(
  body: JsonObject,
  field: string,
  opts: { nonEmpty?: boolean; maxLength?: number } = {},
): string {
  const value = body[field];
  if (value === undefined || value === null)
    throw badRequest(field, `'${field}' is required`, 'missing_required_parameter');
  if (typeof value !== 'string') throw badRequest(field, `'${field}' must be a string`, 'invalid_type');
  if (opts.nonEmpty && value.trim() === '') throw badRequest(field, `'${field}' must not be empty`);
  // Code points never outnumber UTF-16 units, so only a long string needs counting.
  if (opts.maxLength !== undefined && value.length > opts.maxLength) {
    const length = characterCount(value);
    if (length > opts.maxLength)
      throw badRequest(
        field,
        `'${field}' is too long: ${length} characters, at most ${opts.maxLength} allowed`,
        'string_above_max_length',
      );
  }
  return value;
}

/**
 * Length in characters (code points), as the spec's "at most N characters" and the client count
 * it: an emoji is one character, not two UTF-16 units.
 */
export function characterCount(text: string): number {
  return [...text].length;
}

export function optionalString(body: JsonObject, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(field, `'${field}' must be a string`, 'invalid_type');
  return value;
}

export function optionalEnum<T extends string>(body: JsonObject, field: string, allowed: readonly T[]): T | undefined {
  const value = optionalString(body, field);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw badRequest(field, `'${field}' must be one of ${allowed.join(', ')}; got '${value}'`);
  }
  return value as T;
}

export function optionalNumber(body: JsonObject, field: string, min: number, max: number): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw badRequest(field, `'${field}' must be a number`, 'invalid_type');
  if (value < min || value > max) throw badRequest(field, `'${field}' must be between ${min} and ${max}; got ${value}`);
  return value;
}

export function optionalInteger(
  body: JsonObject,
  field: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw badRequest(field, `'${field}' must be an integer`, 'invalid_type');
  if (value < min || value > max) throw badRequest(field, `'${field}' must be between ${min} and ${max}; got ${value}`);
  return value;
}

export function optionalBoolean(body: JsonObject, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw badRequest(field, `'${field}' must be a boolean`, 'invalid_type');
  return value;
}

export function optionalArray(body: JsonObject, field: string): unknown[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw badRequest(field, `'${field}' must be an array`, 'invalid_type');
  return value;
}
