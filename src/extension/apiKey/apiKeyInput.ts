// Checks what a user types as the API key. No vscode import: unit-tested in Node.

/** A message for the input box when the typed key cannot be used, else undefined. */
export function validateApiKeyInput(value: string): string | undefined {
  const trimmed = value.trim();
  if (!trimmed) return 'Enter the API key from your gateway account (Account > API Keys).';
  if (/\s/.test(trimmed)) return 'An API key has no spaces or line breaks inside it.';
  return undefined;
}
