// JSON from the gateway that the extension keeps (tool call arguments) is parsed with a cap on its
// size and nesting. JSON.parse itself copes with any depth, but what is kept must stay usable:
// JSON.stringify (every save of the conversation) overflows the stack a few thousand levels down,
// and redaction replaces what lies past MAX_REDACTION_DEPTH (limits.ts). The checks are linear scans that never recurse past the cap.

export type BoundedJson =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: 'size' | 'depth' | 'syntax'; readonly bytes: number };

export interface JsonBounds {
  readonly maxDepth: number;
  readonly maxBytes: number;
}

/** UTF-8 size of a string, counted only when its length alone cannot settle `<= max`. */
function utf8Exceeds(text: string, max: number): { exceeds: boolean; bytes: number } {
  if (text.length > max) return { exceeds: true, bytes: Buffer.byteLength(text, 'utf8') };
  if (text.length * 3 <= max) return { exceeds: false, bytes: text.length };
  const bytes = Buffer.byteLength(text, 'utf8');
  return { exceeds: bytes > max, bytes };
}

/** Whether brackets nest deeper than `max` anywhere in JSON text (strings skipped, escapes too). */
function jsonTextTooDeep(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Whether an already parsed value nests deeper than `max` (recursion stops at the cap). */
function valueTooDeep(value: unknown, max: number, depth = 0): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth >= max) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value))
    if (valueTooDeep(item, max, depth + 1)) return true;
  return false;
}

/** JSON.parse within bounds: refused (with why) when too large, too deep, or not JSON. */
export function parseBoundedJson(text: string, bounds: JsonBounds): BoundedJson {
  const size = utf8Exceeds(text, bounds.maxBytes);
  if (size.exceeds) return { ok: false, reason: 'size', bytes: size.bytes };
  if (jsonTextTooDeep(text, bounds.maxDepth)) return { ok: false, reason: 'depth', bytes: size.bytes };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: 'syntax', bytes: size.bytes };
  }
}

/** A parsed value within the same bounds (a value that came inside an event, not as text). */
export function checkJsonValue(value: unknown, bounds: JsonBounds): BoundedJson {
  if (valueTooDeep(value, bounds.maxDepth)) return { ok: false, reason: 'depth', bytes: 0 };
  // Not too deep: JSON.stringify cannot overflow now.
  const text = JSON.stringify(value) ?? '';
  const size = utf8Exceeds(text, bounds.maxBytes);
  return size.exceeds ? { ok: false, reason: 'size', bytes: size.bytes } : { ok: true, value };
}
