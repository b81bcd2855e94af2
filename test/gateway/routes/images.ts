import { lookupModel } from '../catalog';
import type { Route, RouteContext } from '../context';
import { notFound } from '../errors';
import { handleImageLink, imageLink, inlineBytes } from '../imageLinks';
import { encodePng, renderPromptPixels } from '../png';
import { truncate } from '../text';
import { optionalEnum, optionalInteger, requireString } from '../validate';

const SIZES = ['1024x1024', '1024x1792', '1792x1024'] as const;

async function handleGenerate(ctx: RouteContext): Promise<void> {
  const body = await ctx.jsonBody();
  const modelId = await ctx.takeModel(body);
  const model = lookupModel(modelId, 'image');
  const prompt = requireString(body, 'prompt', { nonEmpty: true, maxLength: 4000 });
  const n = optionalInteger(body, 'n', 1, 4) ?? 1;
  const size = optionalEnum(body, 'size', SIZES) ?? '1024x1024';
  const quality = optionalEnum(body, 'quality', ['standard', 'hd'] as const) ?? 'standard';
  const format = optionalEnum(body, 'response_format', ['url', 'b64_json'] as const) ?? 'url';
  ctx.state.quota.ensure(ctx.key);
  ctx.state.quota.charge(ctx.key, n * (model.pricing.perImage ?? 0) * (quality === 'hd' ? 2 : 1));
  const [width, height] = size.split('x').map(Number) as [number, number];
  const revised = `A local simulation's abstract rendering (gradient and discs) of: ${truncate(prompt, 300)}`;
  const kinds = ctx.reply.fault?.images ?? [];
  const data = Array.from({ length: n }, (_, i) => {
    const rgb = renderPromptPixels(prompt, width, height, i);
    const picture = { width, height, rgb, png: encodePng(width, height, rgb) };
    const kind = kinds[i] ?? 'png';
    if (format === 'b64_json')
      return { b64_json: inlineBytes(kind, picture).toString('base64'), revised_prompt: revised };
    return { url: imageLink(kind, picture, ctx.state), revised_prompt: revised };
  });
  await ctx.reply.json(200, { created: Math.floor(Date.now() / 1000), data });
}

/** Image URLs need no key, like a provider's signed links; they expire (404) after the configured time. */
async function handleImageFile(ctx: RouteContext): Promise<void> {
  const file = ctx.state.images.get(ctx.params.id ?? '');
  if (!file) throw notFound('This image does not exist or its link has expired', 'image_not_found');
  await ctx.reply.send(200, file.contentType, file.bytes, { 'cache-control': 'private, max-age=3600' });
}

export const imagesRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: /^\/api\/v1\/images\/generations$/,
    shape: 'openai',
    auth: true,
    faultFromModel: true,
    handle: handleGenerate,
  },
  {
    method: 'GET',
    pattern: /^\/files\/images\/(?<id>[0-9a-f-]{36})\.(?:png|jpg|webp|gif|svg)$/,
    shape: 'openai',
    auth: false,
    faultFromModel: false,
    handle: handleImageFile,
  },
  {
    method: 'GET',
    pattern: /^\/files\/links\/(?<kind>[a-z-]+)\/(?<id>[0-9a-f-]{36})$/,
    shape: 'openai',
    auth: false,
    faultFromModel: false,
    handle: handleImageLink,
  },
];
