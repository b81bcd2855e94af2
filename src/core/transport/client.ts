// The gateway client: one object per gateway address and key, with a property per resource.
import { keyHeader, resolveApiKey } from './apiKey';
import { Transport, USER_AGENT } from './transport';
import { ImageDownloader } from '../images/imageDownloader';
import { madeOnce } from '../net/dispatcherOnDemand';
import { AudioResource } from '../resources/audio';
import { ChatResource } from '../resources/chat';
import { EmbeddingsResource, RerankResource } from '../resources/embeddings';
import { ImagesResource } from '../resources/images';
import { MessagesResource } from '../resources/messages';
import { ModelsResource, QuotaResource, ResearchResource } from '../resources/account';
import type { GatewayClientOptions } from '../types/common';

export class GatewayClient {
  readonly models: ModelsResource;
  readonly quota: QuotaResource;
  readonly chat: ChatResource;
  readonly messages: MessagesResource;
  readonly embeddings: EmbeddingsResource;
  readonly rerank: RerankResource;
  readonly audio: AudioResource;
  readonly images: ImagesResource;
  readonly research: ResearchResource;
  /** `{root}/api/v1`, as requests use it. */
  readonly baseUrl: string;
  private readonly apiKey: GatewayClientOptions['apiKey'];
  private readonly knownSecrets: () => readonly string[];

  /** Throws InvalidRequestError('baseUrl') for an address that is not http(s). */
  constructor(given: GatewayClientOptions) {
    // One dispatcher for requests and image links, made on the first of either when given as a function.
    const options: GatewayClientOptions = { ...given, dispatcher: madeOnce(given.dispatcher) };
    const transport = new Transport(options);
    this.apiKey = given.apiKey;
    this.knownSecrets = given.knownSecrets ?? ((): readonly string[] => []);
    this.baseUrl = transport.baseUrl;
    this.models = new ModelsResource(transport);
    this.quota = new QuotaResource(transport);
    this.chat = new ChatResource(transport);
    this.messages = new MessagesResource(transport);
    this.embeddings = new EmbeddingsResource(transport);
    this.rerank = new RerankResource(transport);
    this.audio = new AudioResource(transport);
    this.images = new ImagesResource(transport, imageDownloader(options, transport.baseUrl));
    this.research = new ResearchResource(transport);
  }

  /**
   * What whoever hands this client's answers on must take out of them (StreamRedactor,
   * redactValue): the key requests carry now, and the other known secrets. A gateway or proxy may
   * echo the key into an answer's text; the transport redacts what it parses itself (errors), the
   * text of a streamed answer is the consumer's to redact.
   */
  async redactionSecrets(): Promise<readonly string[]> {
    const current = await resolveApiKey(this.apiKey).catch(() => undefined);
    return [...new Set([...(current ? [current] : []), ...this.knownSecrets()])];
  }
}

/**
 * Image links go through the client's dispatcher; the key and the user's extra headers go only to
 * the gateway's own origin (the downloader decides per hop).
 */
function imageDownloader(options: GatewayClientOptions, gatewayUrl: string): ImageDownloader {
  const extra = Object.fromEntries(
    Object.entries(options.headers ?? {}).filter(([name]) => !/^(authorization|x-api-key)$/i.test(name)),
  );
  return new ImageDownloader({
    gatewayUrl,
    dispatcher: options.dispatcher,
    userAgent: USER_AGENT,
    gatewayHeaders: async () => ({
      ...extra,
      ...keyHeader(options.authHeader ?? 'authorization', await resolveApiKey(options.apiKey)),
    }),
  });
}
