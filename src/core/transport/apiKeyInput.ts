// Checks what a user types as the API key. The input box passes vscode.l10n to have the message in
// the display language.
import { ENGLISH, type Translator } from '../../shared/translator';

/** A message for the input box when the typed key cannot be used, else undefined. */
export function validateApiKeyInput(value: string, l10n: Translator = ENGLISH): string | undefined {
  const trimmed = value.trim();
  if (!trimmed) return l10n.t('Enter the API key from your gateway account (Account > API Keys).');
  if (/\s/.test(trimmed)) return l10n.t('An API key has no spaces or line breaks inside it.');
  return undefined;
}
