// Answers no real gateway sends, for the client's caps (src/core/limits.ts): `endless-line` (one
// SSE line that never ends), `tool-flood=<n>` (n tool calls in one answer) and
// `tools-executed=<n>` (n server-run tools in one chunk). See README "Fault injection".
import type { Reply } from './reply';
import type { SimPlan } from './chatSim';

const LINE_CHUNK = Buffer.alloc(64 * 1024, 'x');
/** How much of the endless line is written at most, so the loop is bounded whatever the client does. */
const ENDLESS_LINE_MAX_BYTES = 1024 * 1024 * 1024;

/** Starts an event whose data line never ends, then writes it until the client hangs up (or 1 GiB). */
export async function writeEndlessLine(reply: Reply): Promise<void> {
  if (!(await reply.write('data: {"choices":[{"index":0,"delta":{"content":"'))) return;
  for (let sent = 0; sent < ENDLESS_LINE_MAX_BYTES; sent += LINE_CHUNK.length) {
    if (!(await reply.write(LINE_CHUNK))) return;
  }
  reply.end();
}

/** The plan's one tool call repeated `count` times (each its own index and id), or the plan as it was. */
export function floodedToolCalls(plan: SimPlan, count: number | undefined): { name: string; arguments: string }[] {
  if (!plan.toolCall) return [];
  return Array.from({ length: count ?? 1 }, () => plan.toolCall as { name: string; arguments: string });
}

/** `count` server-run tools, in the chat's `tools_executed` shape. */
export function floodedToolsExecuted(count: number): SimPlan['toolsExecuted'] {
  return Array.from({ length: count }, (_, i) => ({
    name: 'sim_lookup',
    arguments: { query: `item ${i}` },
    result: `Simulated result ${i}`,
    server: 'https://tools.sim/mcp',
  }));
}
