// Removes secrets from text before it is logged or shown. Defence in depth: code should never put
// a key into a message in the first place, but an error body echoing a header must not leak it.

const MIN_SECRET_LENGTH = 4;

export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
    result = result.split(secret).join('[redacted]');
  }
  return result;
}
