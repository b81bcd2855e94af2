import { badRequest } from './errors';
import { isObject } from './validate';

/**
 * Payload-CMS-style `where` filters over plain objects: `{field: {operator: value}}`, several
 * fields in one object all must match, `and` / `or` hold arrays of filters, and field names may
 * be dotted paths (`metadata.research.status`). Malformed filters are a 400 naming `where`.
 */

const OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'like',
  'exists',
  'greater_than',
  'greater_than_equal',
  'less_than',
  'less_than_equal',
  'in',
  'not_in',
] as const;
type Operator = (typeof OPERATORS)[number];

export function getPath(doc: unknown, path: string): unknown {
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (!isObject(value)) return undefined;
    value = value[part];
  }
  return value;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Orders two values the way a user means it: numbers as numbers, ISO dates as instants, else as text. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string' && ISO_DATE.test(a) && ISO_DATE.test(b))
    return Date.parse(a) - Date.parse(b);
  if (typeof a === 'number' && typeof b === 'string' && b.trim() !== '' && !Number.isNaN(Number(b)))
    return a - Number(b);
  return String(a).localeCompare(String(b));
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || a === null || b === undefined || b === null) return false;
  if (typeof a === 'boolean' || typeof b === 'boolean') return String(a) === String(b); // query strings carry "true"
  return compareValues(a, b) === 0;
}

/** `in` takes an array, or (as Payload's query-string form does) a comma-separated string. */
function list(value: unknown, op: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.split(',').map((s) => s.trim());
  throw badRequest('where', `'${op}' needs an array of values`, 'invalid_where');
}

function test(op: Operator, actual: unknown, expected: unknown): boolean {
  switch (op) {
    case 'equals':
      return same(actual, expected);
    case 'not_equals':
      return !same(actual, expected);
    case 'contains':
      if (Array.isArray(actual)) return actual.some((item) => same(item, expected));
      return typeof actual === 'string' && actual.toLowerCase().includes(String(expected).toLowerCase());
    case 'like': {
      const text = typeof actual === 'string' ? actual.toLowerCase() : '';
      return String(expected)
        .toLowerCase()
        .split(/\s+/)
        .filter(Boolean)
        .every((word) => text.includes(word));
    }
    case 'exists': {
      const present = actual !== undefined && actual !== null;
      return expected === true || expected === 'true' ? present : !present;
    }
    case 'greater_than':
      return actual !== undefined && actual !== null && compareValues(actual, expected) > 0;
    case 'greater_than_equal':
      return actual !== undefined && actual !== null && compareValues(actual, expected) >= 0;
    case 'less_than':
      return actual !== undefined && actual !== null && compareValues(actual, expected) < 0;
    case 'less_than_equal':
      return actual !== undefined && actual !== null && compareValues(actual, expected) <= 0;
    case 'in':
      return list(expected, op).some((item) => same(actual, item));
    case 'not_in':
      return !list(expected, op).some((item) => same(actual, item));
  }
}

/**
 * True when `doc` satisfies `where`. Throws a 400 for unknown operators or malformed clauses;
 * it evaluates every clause (no early return) so a bad clause is reported whatever the data.
 */
export function matchesWhere(doc: unknown, where: unknown): boolean {
  if (!isObject(where)) throw badRequest('where', 'A where filter must be an object', 'invalid_where');
  let ok = true;
  for (const [key, clause] of Object.entries(where)) {
    if (key === 'and' || key === 'or') {
      if (!Array.isArray(clause)) throw badRequest('where', `'${key}' must hold an array of filters`, 'invalid_where');
      const results = clause.map((sub) => matchesWhere(doc, sub));
      if (key === 'and' ? !results.every(Boolean) : !results.some(Boolean)) ok = false;
      continue;
    }
    if (!isObject(clause))
      throw badRequest('where', `The filter on '${key}' must be an object like {"equals": value}`, 'invalid_where');
    for (const [op, expected] of Object.entries(clause)) {
      if (!(OPERATORS as readonly string[]).includes(op)) {
        throw badRequest(
          'where',
          `Unknown operator '${op}' on '${key}'; use one of ${OPERATORS.join(', ')}`,
          'invalid_where',
        );
      }
      if (!test(op as Operator, getPath(doc, key), expected)) ok = false;
    }
  }
  return ok;
}

/** Parses the `where` query parameter (JSON text). */
export function parseWhere(text: string | null): unknown {
  if (text === null || text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('where', "'where' must be a JSON-encoded filter object", 'invalid_where');
  }
  if (!isObject(value)) throw badRequest('where', "'where' must be a JSON object", 'invalid_where');
  matchesWhere({}, value); // validate the operators now, even when there is nothing to filter
  return value;
}
