// Checks before sending: what the spec bounds is validated on our side. Each failure is an
// InvalidRequestError naming the field, thrown before any request goes out.
import { InvalidRequestError } from '../errors';

export function requireString(field: string, value: unknown): void {
  if (typeof value !== 'string' || value.trim() === '')
    throw new InvalidRequestError(field, `${field} is required and must be a non-empty string`);
}

export function requireArray(field: string, value: unknown, nonEmpty = true): void {
  if (!Array.isArray(value) || (nonEmpty && value.length === 0)) {
    throw new InvalidRequestError(field, `${field} is required and must be ${nonEmpty ? 'a non-empty' : 'an'} array`);
  }
}

export function checkRange(field: string, value: unknown, min: number, max: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new InvalidRequestError(field, `${field} must be a number from ${min} to ${max}`);
  }
}

export function checkInteger(field: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const bound = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    throw new InvalidRequestError(field, `${field} must be an integer ${bound}`);
  }
}

export function checkOneOf(field: string, value: unknown, allowed: readonly string[]): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || !allowed.includes(value))
    throw new InvalidRequestError(field, `${field} must be one of ${allowed.join(', ')}`);
}

export function requireObject(field: string, value: unknown): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidRequestError(field, `${field} is required`);
}

/** Length in characters (code points), which is what "max 4096 characters" counts. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
