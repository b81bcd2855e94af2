import { randomUUID } from 'node:crypto';
import { lookupModel, type CatalogModel } from '../catalog';
import { parseChatRequest } from '../chatRequest';
import { refuseImagesFor } from '../imageParts';
import { planReply, type SimPlan } from '../chatSim';
import type { Route, RouteContext } from '../context';
import { chargeRequest } from '../lateSettle';
import { enforceContextLength } from '../contextLimit';
import { badRequest } from '../errors';
import { writeSse, type SseEvent } from '../sse';
import { countTokens, fragments, streamPieces } from '../text';
import { isObject, optionalBoolean, optionalInteger, optionalNumber, type JsonObject } from '../validate';
import { floodedToolCalls, floodedToolsExecuted } from '../floods';
import { keepAliveChunk, sendPortalPage, shapeChatChunk, shapeChatCompletion, type WireVariant } from '../wireVariants';
import { echoIntoPlan } from '../keyEcho';
import { pieceDelayMs, scriptedText } from '../completionRoute';
import { chatAnnotations, searchResults } from '../webSearch';

function usageOf(plan: SimPlan, promptTokens: number): Record<string, unknown> {
  const reasoningTokens = plan.reasoning ? countTokens(plan.reasoning) : 0;
  const completion =
    plan.contentPieces.length + reasoningTokens + (plan.toolCall ? countTokens(plan.toolCall.arguments) + 1 : 0);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completion,
    total_tokens: promptTokens + completion,
    ...(reasoningTokens ? { completion_tokens_details: { reasoning_tokens: reasoningTokens } } : {}),
  };
}

function costOf(model: CatalogModel, usage: Record<string, unknown>): number {
  const prompt = Number(usage.prompt_tokens);
  const completion = Number(usage.completion_tokens);
  return (prompt * (model.pricing.input ?? 0) + completion * (model.pricing.output ?? 0)) / 1e6;
}

function streamEvents(
  plan: SimPlan,
  base: { id: string; created: number; model: string },
  usage: Record<string, unknown> | undefined,
  wire?: ReadonlySet<WireVariant>,
  toolFlood?: number,
  finishError?: string,
  nullCounts?: boolean,
  annotations?: readonly Record<string, unknown>[],
): SseEvent[] {
  // Each chunk is serialised when it is written, not up front: the first bytes leave at once and
  // the stream flows while it is produced, as from a real gateway (a 100k-chunk benchmark stream
  // would otherwise hold every byte back until all of it was built).
  const chunk = (
    delta: Record<string, unknown>,
    finish: string | null = null,
    extra: Record<string, unknown> = {},
  ): SseEvent => ({
    get data(): string {
      return JSON.stringify(
        shapeChatChunk(
          {
            id: base.id,
            object: 'chat.completion.chunk',
            created: base.created,
            model: base.model,
            choices: [{ index: 0, delta, finish_reason: finish }],
            ...extra,
          },
          wire,
        ),
      );
    },
  });
  const keepAlive = keepAliveChunk(base, wire);
  const events: SseEvent[] = keepAlive ? [{ data: JSON.stringify(keepAlive) }] : [];
  events.push(chunk({ role: 'assistant', content: '' }));
  if (plan.toolsExecuted.length) events.push(chunk({}, null, { tools_executed: plan.toolsExecuted }));
  for (const piece of plan.reasoning ? streamPieces(plan.reasoning) : [])
    events.push(chunk({ reasoning_content: piece }));
  // finish-error: a translating proxy ends the stream "normally" with the upstream's error as the reason.
  const pieces =
    finishError === undefined
      ? plan.contentPieces
      : plan.contentPieces.slice(0, Math.max(1, Math.floor(plan.contentPieces.length / 2)));
  pieces.forEach((piece, i) => {
    events.push(chunk({ content: piece }));
    if (i === 0 && keepAlive) events.push({ data: JSON.stringify(keepAlive) });
  });
  if (finishError !== undefined) {
    events.push(chunk({}, finishError), { data: '[DONE]' });
    return events;
  }
  // web-search: the citations in a delta of their own after the text, as OpenAI's web search streams them.
  if (annotations?.length) events.push(chunk({ annotations }));
  if (plan.toolCall && toolFlood !== undefined) {
    // tool-flood: every call whole, all in one chunk.
    const calls = floodedToolCalls(plan, toolFlood).map((call, index) => ({
      index,
      id: `call_flood_${index}`,
      type: 'function',
      function: call,
    }));
    events.push(chunk({ tool_calls: calls }));
  } else if (plan.toolCall) {
    const call = plan.toolCall;
    events.push(
      chunk({
        tool_calls: [
          {
            index: 0,
            id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
            type: 'function',
            function: { name: call.name, arguments: '' },
          },
        ],
      }),
    );
    for (const piece of fragments(call.arguments, 7))
      events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
  }
  // null-counts: the finish chunk carries the usage, the closing usage sends the prompt count as null (a proxy).
  events.push(chunk({}, plan.finish, nullCounts && usage ? { usage } : {}));
  if (usage)
    events.push({
      data: JSON.stringify({
        id: base.id,
        object: 'chat.completion.chunk',
        created: base.created,
        model: base.model,
        choices: wire?.has('no-choices') ? null : [],
        usage: nullCounts ? { ...usage, prompt_tokens: null, total_tokens: null } : usage,
      }),
    });
  events.push({ data: '[DONE]' });
  return events;
}

async function handleChat(ctx: RouteContext): Promise<void> {
  const body: JsonObject = await ctx.jsonBody();
  const modelId = await ctx.takeModel(body);
  const model = lookupModel(modelId, 'chat');
  optionalNumber(body, 'temperature', 0, 2);
  optionalNumber(body, 'top_p', 0, 1);
  const stream = optionalBoolean(body, 'stream') ?? false;
  const maxTokens = optionalInteger(body, 'max_tokens', 1) ?? optionalInteger(body, 'max_completion_tokens', 1);
  let includeUsage = false;
  if (body.stream_options !== undefined && body.stream_options !== null) {
    if (ctx.state.settings.rejectStreamOptions || ctx.reply.fault?.rejectStreamOptions) {
      throw badRequest(
        'stream_options',
        'Unrecognized request argument supplied: stream_options (this gateway was told to reject it)',
        'unknown_parameter',
      );
    }
    if (!isObject(body.stream_options))
      throw badRequest('stream_options', "'stream_options' must be an object", 'invalid_type');
    if (!stream) throw badRequest('stream_options', "'stream_options' is only allowed when 'stream' is true");
    includeUsage = body.stream_options.include_usage === true;
  }
  const wire = ctx.reply.fault?.wire;
  if (wire?.has('html-200')) return sendPortalPage(ctx.reply);
  const parsed = parseChatRequest(body);
  refuseImagesFor(modelId, model.vision, parsed.images);
  enforceContextLength(model, parsed.promptTokens, maxTokens, 'chat');
  ctx.state.quota.ensure(ctx.key);
  const planned = planReply({
    ...parsed.sim,
    model,
    maxTokens,
    scriptedTools: ctx.reply.fault?.toolArgs === true,
    ...scriptedText(ctx, model, parsed.sim.lastUserText),
  });
  // tools-executed: the tool servers "ran" that many tools before a text answer (none after a tool result).
  const flooded = ctx.reply.fault?.toolsExecuted;
  const plan = echoIntoPlan(
    ctx.reply.echo,
    flooded !== undefined && !planned.toolCall && !parsed.sim.toolResult
      ? { ...planned, toolsExecuted: floodedToolsExecuted(flooded) }
      : planned,
  );
  const usage = usageOf(plan, parsed.promptTokens);
  chargeRequest(ctx, costOf(model, usage));
  // web-search: the answer cites what a search for the last user message found (none when it failed).
  const search = ctx.reply.fault?.webSearch;
  const annotations =
    search && search !== 'error' && !plan.toolCall
      ? chatAnnotations(searchResults(parsed.sim.lastUserText, search), plan.contentPieces.join(''))
      : undefined;
  const base = { id: `chatcmpl-sim-${randomUUID()}`, created: Math.floor(Date.now() / 1000), model: modelId };
  if (stream && !wire?.has('whole-json')) {
    const errorEvent = {
      data: JSON.stringify({
        error: {
          message: 'Simulated mid-stream error (x-gateway-fault error-event)',
          type: 'server_error',
          code: 'simulated_fault',
        },
      }),
    };
    const malformed = {
      data: `{"id":"${base.id}","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"this chunk is cut`,
    };
    // usage-last-only: a final `choices: []` chunk with usage even when stream_options was not sent.
    const streamUsage = includeUsage || wire?.has('usage-last-only') ? usage : undefined;
    await writeSse(
      ctx.reply,
      streamEvents(
        plan,
        base,
        streamUsage,
        wire,
        ctx.reply.fault?.toolFlood,
        ctx.reply.fault?.finishError,
        ctx.reply.fault?.nullCounts,
        annotations,
      ),
      { malformed, error: errorEvent },
      { pieceDelayMs: pieceDelayMs(model) },
    );
    return;
  }
  const content = plan.contentPieces.join('');
  const message: Record<string, unknown> = { role: 'assistant', content: plan.toolCall ? null : content };
  if (plan.reasoning) message.reasoning_content = plan.reasoning;
  if (annotations) message.annotations = annotations;
  if (plan.toolCall) {
    message.tool_calls = [
      {
        id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
        type: 'function',
        function: { name: plan.toolCall.name, arguments: plan.toolCall.arguments },
      },
    ];
  }
  // whole-json on a stream request lands here too: the whole completion, as application/json.
  await ctx.reply.json(
    200,
    shapeChatCompletion(
      {
        ...base,
        object: 'chat.completion',
        system_fingerprint: 'local-simulation',
        choices: [{ index: 0, message, finish_reason: plan.finish, logprobs: null }],
        usage,
        ...(plan.toolsExecuted.length ? { tools_executed: plan.toolsExecuted } : {}),
      },
      wire,
    ),
  );
}

export const chatRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: /^\/api\/v1\/chat\/completions$/,
    shape: 'openai',
    auth: true,
    faultFromModel: true,
    handle: handleChat,
  },
];
