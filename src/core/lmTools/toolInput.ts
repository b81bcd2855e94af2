// A tool's input as a model sends it (untrusted: checked field by field), for every tool that
// reads one: VS Code's language model tools and the chat's own. A ToolInputError's message says
// what to correct, in words the model can act on.
import { asRecord } from '../parse/json';

export class ToolInputError extends Error {}

/** A required text field, trimmed, at most `max` characters. */
export function requiredText(input: unknown, key: string, max: number): string {
  const value = asRecord(input)[key];
  if (typeof value !== 'string' || !value.trim())
    throw new ToolInputError(`The input needs "${key}" (a non-empty string).`);
  const text = value.trim();
  if (text.length > max)
    throw new ToolInputError(`"${key}" is ${text.length} characters long; the most accepted is ${max}.`);
  return text;
}

export function optionalText(input: unknown, key: string, max: number): string | undefined {
  const value = asRecord(input)[key];
  if (value === undefined || value === null || (typeof value === 'string' && !value.trim())) return undefined;
  return requiredText(input, key, max);
}

export function optionalInteger(input: unknown, key: string, min: number, max: number): number | undefined {
  const value = asRecord(input)[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new ToolInputError(`"${key}" must be a whole number from ${min} to ${max}.`);
  return value;
}

export function optionalBoolean(input: unknown, key: string): boolean | undefined {
  const value = asRecord(input)[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ToolInputError(`"${key}" must be true or false.`);
  return value;
}

export function optionalChoice<T extends string>(input: unknown, key: string, choices: readonly T[]): T | undefined {
  const value = asRecord(input)[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value))
    throw new ToolInputError(`"${key}" must be one of: ${choices.join(', ')}.`);
  return value as T;
}

/** An array of strings, each non-empty after trimming, with bounds on count and length. */
export function requiredTexts(input: unknown, key: string, maxCount: number, maxLength: number): string[] {
  const value = asRecord(input)[key];
  if (!Array.isArray(value) || value.length === 0)
    throw new ToolInputError(`The input needs "${key}" (a non-empty array of strings).`);
  if (value.length > maxCount)
    throw new ToolInputError(`"${key}" has ${value.length} items; the most accepted is ${maxCount}.`);
  return value.map((item, index) => {
    if (typeof item !== 'string' || !item.trim())
      throw new ToolInputError(`"${key}"[${index}] must be a non-empty string.`);
    if (item.length > maxLength)
      throw new ToolInputError(
        `"${key}"[${index}] is ${item.length} characters long; the most accepted is ${maxLength}.`,
      );
    return item;
  });
}
