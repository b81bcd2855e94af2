// Ids for conversations, turns and attachments: unique within a run and across restarts (time +
// counter + a little randomness), and of the shape the conversation store accepts ([A-Za-z0-9-]).
let counter = 0;

export function newId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}
