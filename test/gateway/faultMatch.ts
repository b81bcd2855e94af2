// `match=<text>`: a fault that applies only to requests whose JSON body contains the text
// (case-insensitive), so a test can fail one request of a multi-request flow (the chat's summary
// request among its replies, say) by what it carries rather than by its position. Requests that
// do not match are not faulted and not counted by `times`. GET requests have no body: never matched.

export function faultMatches(match: string | undefined, body: unknown): boolean {
  if (match === undefined) return true;
  if (body === undefined) return false;
  return JSON.stringify(body).toLowerCase().includes(match.toLowerCase());
}
