import type { Route, RouteContext } from '../context';
import { badRequest, notFound } from '../errors';
import { SORT_FIELDS } from '../researchStore';
import { requireString } from '../validate';
import { parseWhere } from '../whereFilter';

/** What one research job costs (USD): research is model-using, so it draws on the credits too. */
const RESEARCH_COST_USD = 0.1;

async function handleCreate(ctx: RouteContext): Promise<void> {
  const body = await ctx.jsonBody();
  const topic = requireString(body, 'topic', { nonEmpty: true, maxLength: 8000 });
  ctx.state.quota.ensure(ctx.key);
  ctx.state.quota.charge(ctx.key, RESEARCH_COST_USD);
  const job = ctx.state.research.create(ctx.key, topic.trim());
  await ctx.reply.json(200, {
    id: job.id,
    status: job.status,
    title: job.title,
    topic: job.topic,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  });
}

function intParam(params: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const raw = params.get(name);
  if (raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw badRequest(
      name,
      `'${name}' must be an integer from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'up' : max}; got '${raw}'`,
    );
  }
  return value;
}

async function handleList(ctx: RouteContext): Promise<void> {
  const params = ctx.url.searchParams;
  const limit = intParam(params, 'limit', 1, 100, 20);
  const page = intParam(params, 'page', 1, Number.MAX_SAFE_INTEGER, 1);
  const sort = params.get('sort') || '-createdAt';
  if (!(SORT_FIELDS as readonly string[]).includes(sort.replace(/^-/, ''))) {
    throw badRequest(
      'sort',
      `'sort' must be one of ${SORT_FIELDS.join(', ')}, with a leading '-' for descending; got '${sort}'`,
    );
  }
  const where = parseWhere(params.get('where'));
  await ctx.reply.json(200, ctx.state.research.list(ctx.key, { where, sort, limit, page }));
}

async function handleGet(ctx: RouteContext): Promise<void> {
  if (ctx.state.research.detailUnavailable)
    throw notFound('Research job details are not available on this gateway', 'research_detail_unavailable');
  const job = ctx.state.research.get(ctx.key, ctx.params.id ?? '');
  if (!job) throw notFound(`No research job with id '${ctx.params.id ?? ''}' for this API key`, 'research_not_found');
  await ctx.reply.json(200, job);
}

export const researchRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: /^\/api\/v1\/research$/,
    shape: 'openai',
    auth: true,
    faultFromModel: false,
    handle: handleCreate,
  },
  {
    method: 'GET',
    pattern: /^\/api\/v1\/research$/,
    shape: 'openai',
    auth: true,
    faultFromModel: false,
    handle: handleList,
  },
  {
    method: 'GET',
    pattern: /^\/api\/v1\/research\/(?<id>[^/]+)$/,
    shape: 'openai',
    auth: true,
    faultFromModel: false,
    handle: handleGet,
  },
];
