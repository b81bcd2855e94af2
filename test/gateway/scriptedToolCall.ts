// `tool-args`: a test scripts the model's tool call exactly. The last user message is
// `<tool name> <JSON object>`; the model calls that tool with that object as its arguments (the
// usual simulation derives arguments from the schema, which cannot express an edit). Anything
// else in the message is a 400, so a typo never silently tests a different call.
import { badRequest } from './errors';
import type { SimInput } from './chatSim';
import { FAULT_HEADER } from './faults';

export function scriptedToolCall(
  input: Pick<SimInput, 'lastUserText' | 'lastIsUser' | 'toolResult' | 'tools'>,
): { name: string; arguments: string } | undefined {
  if (!input.lastIsUser || input.toolResult) return undefined;
  const text = input.lastUserText.trim();
  const space = text.search(/\s/);
  const name = space < 0 ? text : text.slice(0, space);
  if (!input.tools.some((tool) => tool.name === name)) {
    throw badRequest(
      FAULT_HEADER,
      `tool-args: the last user message must start with the name of a tool in 'tools' (got '${name.slice(0, 64)}')`,
      'invalid_fault',
    );
  }
  let args: unknown;
  try {
    args = JSON.parse(space < 0 ? '' : text.slice(space));
  } catch {
    args = undefined;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw badRequest(
      FAULT_HEADER,
      `tool-args: after the tool name the last user message must hold one JSON object (the call's arguments)`,
      'invalid_fault',
    );
  }
  return { name, arguments: JSON.stringify(args) };
}
