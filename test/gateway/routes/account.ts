import { CATALOG, modelObject } from '../catalog';
import type { Route, RouteContext } from '../context';
import { echoIntoModel } from '../keyEcho';

async function handleModels(ctx: RouteContext): Promise<void> {
  await ctx.reply.json(200, {
    object: 'list',
    data: CATALOG.map((model) => echoIntoModel(ctx.reply.echo, modelObject(model))),
  });
}

async function handleQuota(ctx: RouteContext): Promise<void> {
  await ctx.reply.json(200, ctx.state.quota.get(ctx.key));
}

export const accountRoutes: readonly Route[] = [
  {
    method: 'GET',
    pattern: /^\/api\/v1\/models$/,
    shape: 'openai',
    auth: true,
    faultFromModel: false,
    handle: handleModels,
  },
  {
    method: 'GET',
    pattern: /^\/api\/v1\/quota$/,
    shape: 'openai',
    auth: true,
    faultFromModel: false,
    handle: handleQuota,
  },
];
