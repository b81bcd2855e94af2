import { pieceDelayMs, scriptedText } from '../completionRoute';
import { randomUUID } from 'node:crypto';
import { lookupModel } from '../catalog';
import { refuseImagesFor } from '../imageParts';
import { planReply, type SimPlan } from '../chatSim';
import type { Route, RouteContext } from '../context';
import { chargeRequest } from '../lateSettle';
import { badRequest } from '../errors';
import { overloadedMid, redactedThinkingData, withPings } from '../messagesFaults';
import { parseMessagesRequest } from '../messagesRequest';
import { enforceContextLength } from '../contextLimit';
import { writeSse, type SseEvent } from '../sse';
import { countTokens, fragments, hmacBase64, streamPieces } from '../text';
import { optionalBoolean, optionalInteger, optionalNumber, type JsonObject } from '../validate';
import { sendPortalPage } from '../wireVariants';
import { echoIntoPlan } from '../keyEcho';
import {
  messageCitations,
  searchBlocks,
  searchResults,
  type ServerToolUseBlock,
  type WebSearchMode,
  type WebSearchResultBlock,
} from '../webSearch';

const STOP_REASONS = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' } as const;

type Block =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'mcp_tool_use'; id: string; name: string; server_name: string; input: Record<string, unknown> }
  | { type: 'mcp_tool_result'; tool_use_id: string; is_error: boolean; content: { type: 'text'; text: string }[] }
  | ServerToolUseBlock
  | WebSearchResultBlock
  | { type: 'text'; text: string; citations?: Record<string, unknown>[] }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** What a request's fault adds to the blocks: a web search before the answer, failing tool servers. */
interface BlockOptions {
  readonly redacted?: boolean;
  readonly noArgsAfterFirst?: boolean;
  readonly webSearch?: { readonly query: string; readonly mode: WebSearchMode };
  readonly mcpError?: boolean;
}

/** The content blocks of the answer: thinking (signed), text, and a tool_use when the simulation calls a tool. */
function blocksOf(plan: SimPlan, secret: string, options: BlockOptions = {}): Block[] {
  const { redacted = false, noArgsAfterFirst = false, webSearch, mcpError = false } = options;
  const blocks: Block[] = [];
  if (redacted) blocks.push({ type: 'redacted_thinking', data: redactedThinkingData(secret) });
  if (plan.reasoning)
    blocks.push({ type: 'thinking', thinking: plan.reasoning, signature: hmacBase64(secret, plan.reasoning) });
  // web-search: Anthropic's web search tool runs on the server before the answer; the text cites its results.
  const results = webSearch ? searchResults(webSearch.query, webSearch.mode) : [];
  if (webSearch) blocks.push(...searchBlocks(webSearch.query, results, webSearch.mode));
  const cited = webSearch !== undefined && webSearch.mode !== 'error';
  // Tools run on the attached `mcp_servers`, in the shape of Anthropic's MCP connector.
  for (const tool of plan.toolsExecuted) {
    const id = `mcptoolu_sim_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
    const input = noArgsAfterFirst && blocks.some((b) => b.type === 'mcp_tool_use') ? {} : tool.arguments;
    blocks.push({ type: 'mcp_tool_use', id, name: tool.name, server_name: tool.server, input });
    blocks.push({
      type: 'mcp_tool_result',
      tool_use_id: id,
      is_error: mcpError,
      content: [
        {
          type: 'text',
          text: mcpError
            ? `Simulated failure: the tool server ${tool.server} refused the call (mcp-error).`
            : tool.result,
        },
      ],
    });
  }
  if (plan.toolCall) {
    blocks.push({ type: 'text', text: `Calling \`${plan.toolCall.name}\` (local simulation).` });
    blocks.push({
      type: 'tool_use',
      id: `toolu_sim_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
      name: plan.toolCall.name,
      input: JSON.parse(plan.toolCall.arguments) as Record<string, unknown>,
    });
  } else {
    const text = plan.contentPieces.join('');
    blocks.push(cited ? { type: 'text', text, citations: messageCitations(results, text) } : { type: 'text', text });
  }
  return blocks;
}

function outputTokens(blocks: readonly Block[], plan: SimPlan): number {
  return (
    blocks.reduce(
      (sum, b) =>
        sum +
        (b.type === 'thinking'
          ? countTokens(b.thinking)
          : b.type === 'redacted_thinking' || b.type === 'mcp_tool_result'
            ? 0
            : b.type === 'mcp_tool_use' || b.type === 'server_tool_use'
              ? countTokens(JSON.stringify(b.input))
              : b.type === 'tool_use'
                ? countTokens(JSON.stringify(b.input))
                : 0),
      0,
    ) + (plan.toolCall ? 6 : plan.contentPieces.length)
  );
}

function streamEvents(
  message: Record<string, unknown>,
  blocks: readonly Block[],
  plan: SimPlan,
  usage: { input_tokens: number; output_tokens: number },
  options: { readonly toolInputDeltas?: boolean; readonly nullCounts?: boolean } = {},
): SseEvent[] {
  const ev = (type: string, payload: Record<string, unknown>): SseEvent => ({
    event: type,
    data: JSON.stringify({ type, ...payload }),
  });
  const events: SseEvent[] = [
    ev('message_start', {
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
      },
    }),
    ev('ping', {}),
  ];
  blocks.forEach((block, index) => {
    const delta = (d: Record<string, unknown>): SseEvent => ev('content_block_delta', { index, delta: d });
    if (block.type === 'server_tool_use') {
      // As the real API streams it: the input as input_json_delta pieces after an empty start.
      events.push(ev('content_block_start', { index, content_block: { ...block, input: {} } }));
      for (const piece of fragments(JSON.stringify(block.input), 7))
        events.push(delta({ type: 'input_json_delta', partial_json: piece }));
    } else if (block.type === 'web_search_tool_result') {
      events.push(ev('content_block_start', { index, content_block: block }));
    } else if (block.type === 'mcp_tool_use' && options.toolInputDeltas) {
      // tool-input-deltas: the input streams as every tool block's does; no arguments is one empty piece.
      events.push(ev('content_block_start', { index, content_block: { ...block, input: {} } }));
      const json = Object.keys(block.input).length ? JSON.stringify(block.input) : '';
      for (const piece of json ? fragments(json, 7) : [''])
        events.push(delta({ type: 'input_json_delta', partial_json: piece }));
    } else if (
      block.type === 'redacted_thinking' ||
      block.type === 'mcp_tool_use' ||
      block.type === 'mcp_tool_result'
    ) {
      // Sent whole in its start event, as the real API does: no deltas.
      events.push(ev('content_block_start', { index, content_block: block }));
    } else if (block.type === 'thinking') {
      events.push(
        ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      );
      for (const piece of streamPieces(block.thinking)) events.push(delta({ type: 'thinking_delta', thinking: piece }));
      events.push(delta({ type: 'signature_delta', signature: block.signature }));
    } else if (block.type === 'text') {
      // A cited block starts with `citations: []`; each citation arrives as a citations_delta before the text.
      events.push(
        ev('content_block_start', {
          index,
          content_block: block.citations ? { type: 'text', text: '', citations: [] } : { type: 'text', text: '' },
        }),
      );
      for (const citation of block.citations ?? []) events.push(delta({ type: 'citations_delta', citation }));
      // Text comes from the plan's pieces (already cut to max_tokens); a ping now and then, as the real API sends.
      const pieces = plan.toolCall ? streamPieces(block.text) : plan.contentPieces;
      pieces.forEach((piece, i) => {
        if (i > 0 && i % 200 === 0) events.push(ev('ping', {}));
        events.push(delta({ type: 'text_delta', text: piece }));
      });
    } else {
      events.push(
        ev('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      for (const piece of fragments(JSON.stringify(block.input), 7))
        events.push(delta({ type: 'input_json_delta', partial_json: piece }));
    }
    events.push(ev('content_block_stop', { index }));
  });
  // null-counts: a proxy that does not know the input count sends it as null (message_start gave it).
  const closing = options.nullCounts ? { ...usage, input_tokens: null } : usage;
  events.push(
    ev('message_delta', { delta: { stop_reason: STOP_REASONS[plan.finish], stop_sequence: null }, usage: closing }),
  );
  events.push(ev('message_stop', {}));
  return events;
}

async function handleMessages(ctx: RouteContext): Promise<void> {
  const body: JsonObject = await ctx.jsonBody();
  const modelId = await ctx.takeModel(body);
  const model = lookupModel(modelId, 'chat');
  const maxTokens = optionalInteger(body, 'max_tokens', 1);
  if (maxTokens === undefined)
    throw badRequest('max_tokens', 'max_tokens: Field required', 'missing_required_parameter');
  optionalNumber(body, 'temperature', 0, 1);
  const stream = optionalBoolean(body, 'stream') ?? false;
  const wire = ctx.reply.fault?.wire;
  if (wire?.has('html-200')) return sendPortalPage(ctx.reply);
  const parsed = parseMessagesRequest(body, maxTokens, ctx.state.secret);
  refuseImagesFor(modelId, model.vision, parsed.images);
  enforceContextLength(model, parsed.inputTokens, maxTokens, 'messages');
  ctx.state.quota.ensure(ctx.key);
  const plan = echoIntoPlan(
    ctx.reply.echo,
    planReply({
      ...parsed.sim,
      model,
      maxTokens,
      scriptedTools: ctx.reply.fault?.toolArgs === true,
      ...scriptedText(ctx, model, parsed.sim.lastUserText),
    }),
  );
  const fault = ctx.reply.fault;
  const blocks = blocksOf(plan, ctx.state.secret, {
    redacted: fault?.redactedThinking === true,
    noArgsAfterFirst: fault?.toolInputDeltas === true,
    ...(fault?.webSearch ? { webSearch: { query: parsed.sim.lastUserText, mode: fault.webSearch } } : {}),
    mcpError: fault?.mcpError === true,
  });
  const usage = {
    input_tokens: parsed.inputTokens,
    output_tokens: outputTokens(blocks, plan),
    // As the real API counts its server tools.
    ...(fault?.webSearch ? { server_tool_use: { web_search_requests: 1 } } : {}),
  };
  chargeRequest(
    ctx,
    (usage.input_tokens * (model.pricing.input ?? 0) + usage.output_tokens * (model.pricing.output ?? 0)) / 1e6,
  );
  const message = {
    id: `msg_sim_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
    type: 'message',
    role: 'assistant',
    model: modelId,
  };
  // whole-json: a stream request answered with the whole message, as application/json.
  if (stream && !wire?.has('whole-json')) {
    const error = {
      event: 'error',
      data: JSON.stringify({
        type: 'error',
        error: { type: 'overloaded_error', message: 'Simulated mid-stream error (x-gateway-fault error-event)' },
      }),
    };
    const malformed = {
      event: 'content_block_delta',
      data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"this event is cut',
    };
    let events = streamEvents(message, blocks, plan, usage, {
      toolInputDeltas: fault?.toolInputDeltas === true,
      nullCounts: fault?.nullCounts === true,
    });
    if (fault?.overloadedMid) events = overloadedMid(events);
    if (fault?.pings) events = withPings(events);
    await writeSse(ctx.reply, events, { malformed, error }, { pieceDelayMs: pieceDelayMs(model) });
    return;
  }
  await ctx.reply.json(200, {
    ...message,
    content: blocks,
    stop_reason: STOP_REASONS[plan.finish],
    stop_sequence: null,
    usage,
  });
}

export const messagesRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: /^\/api\/v1\/messages$/,
    shape: 'anthropic',
    auth: true,
    faultFromModel: true,
    handle: handleMessages,
  },
];
