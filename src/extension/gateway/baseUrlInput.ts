// Checks what a user types as the gateway address. No vscode import: unit-tested in Node.

/** A message for the input box when the address cannot be used, else undefined. */
export function validateBaseUrlInput(value: string): string | undefined {
  const trimmed = value.trim();
  if (!trimmed) return 'Enter the gateway address, e.g. https://gateway.example.com';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return 'This is not a full address: start with https:// (or http:// for a local gateway).';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The address must start with https:// or http://';
  if (url.username || url.password) return 'Do not put credentials in the address: use Set API Key.';
  if (url.search || url.hash) return 'The address takes no ?query or #fragment.';
  return undefined;
}
