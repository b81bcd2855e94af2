/** Ends a `switch` over a message union: the compiler reports a case that is not handled. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected message: ${JSON.stringify(value)}`);
}
