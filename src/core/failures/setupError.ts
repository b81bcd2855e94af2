// What is missing before any request can go out: the gateway address or the API key. Thrown (or
// described) like a gateway failure, so every feature says it the same way, with the same action.

export const SETUP_ERROR_NAME = 'SetupRequiredError';

export type MissingSetup = 'baseUrl' | 'apiKey';

export class SetupRequiredError extends Error {
  constructor(readonly missing: MissingSetup) {
    super(missing === 'baseUrl' ? 'The gateway address is not set.' : 'No API key is set.');
    this.name = SETUP_ERROR_NAME;
  }
}

/** What a request needs first, or undefined when both the address and a key are there. */
export function missingSetup(setup: {
  readonly client: unknown;
  readonly baseUrl: string;
  readonly hasKey: boolean;
}): MissingSetup | undefined {
  if (!setup.client || !setup.baseUrl) return 'baseUrl';
  if (!setup.hasKey) return 'apiKey';
  return undefined;
}
