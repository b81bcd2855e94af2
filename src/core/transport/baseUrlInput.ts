// Checks what a user types as the gateway address. The input box passes vscode.l10n to have the
// message in the display language.
import { sendsKeyInClearText } from './baseUrl';
import { ENGLISH, type Translator } from '../../shared/translator';

/** A message for the input box when the address cannot be used, else undefined. */
export function validateBaseUrlInput(value: string, l10n: Translator = ENGLISH): string | undefined {
  const trimmed = value.trim();
  if (!trimmed) return l10n.t('Enter the gateway address, e.g. {0}', 'https://gateway.example.com');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return l10n.t('This is not a full address: start with https:// (or http:// for a local gateway).');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return l10n.t('The address must start with https:// or http://');
  if (url.username || url.password) return l10n.t('Do not put credentials in the address: use Set API Key.');
  if (url.search || url.hash) return l10n.t('The address takes no ?query or #fragment.');
  return undefined;
}

/** A warning for an address that works but sends the key in clear text (http:// to another machine), else undefined. */
export function baseUrlInputWarning(value: string, l10n: Translator = ENGLISH): string | undefined {
  if (validateBaseUrlInput(value) !== undefined || !sendsKeyInClearText(value)) return undefined;
  return l10n.t(
    'This address is http:// on another machine: your API key and everything you send would travel in clear text. Use https:// unless the network between is yours alone.',
  );
}
