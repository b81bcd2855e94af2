// GET /api/v1/models, GET /api/v1/quota and the research jobs.
import type { Transport } from '../transport/transport';
import { MAX_CATALOG_BYTES, MAX_RESEARCH_LIST_BYTES, MAX_SMALL_JSON_BYTES } from '../limits';
import {
  parseModelList,
  parseQuota,
  parseResearchCreated,
  parseResearchJob,
  parseResearchList,
} from '../parse/resources';
import { buildResearchQuery } from '../research/researchHelpers';
import type { Model, Quota, ResearchCreated, ResearchJob, ResearchList, ResearchListQuery } from '../types/account';
import type { RequestOptions } from '../types/common';
import { requireString } from '../transport/validate';

export class ModelsResource {
  constructor(private readonly transport: Transport) {}

  async list(opts?: RequestOptions): Promise<Model[]> {
    return parseModelList(
      await this.transport.json({
        method: 'GET',
        path: '/models',
        retryable: true,
        options: opts,
        maxBytes: MAX_CATALOG_BYTES,
      }),
    );
  }
}

export class QuotaResource {
  constructor(private readonly transport: Transport) {}

  async get(opts?: RequestOptions): Promise<Quota> {
    return parseQuota(
      await this.transport.json({
        method: 'GET',
        path: '/quota',
        retryable: true,
        options: opts,
        maxBytes: MAX_SMALL_JSON_BYTES,
      }),
    );
  }
}

export class ResearchResource {
  constructor(private readonly transport: Transport) {}

  /** Starts a job (2 to 5 minutes). Never retried automatically: a retry could start a second job. */
  async create(topic: string, opts?: RequestOptions): Promise<ResearchCreated> {
    requireString('topic', topic);
    return parseResearchCreated(
      await this.transport.json({
        method: 'POST',
        path: '/research',
        json: { topic },
        retryable: false,
        options: opts,
        maxBytes: MAX_SMALL_JSON_BYTES,
      }),
    );
  }

  async list(query?: ResearchListQuery, opts?: RequestOptions): Promise<ResearchList> {
    const search = buildResearchQuery(query);
    return parseResearchList(
      await this.transport.json({
        method: 'GET',
        path: '/research',
        query: search,
        retryable: true,
        options: opts,
        maxBytes: MAX_RESEARCH_LIST_BYTES,
      }),
    );
  }

  /** The job document. A 404 (GatewayError status 404) means the detail is unavailable, not that the job is gone. */
  async get(id: string, opts?: RequestOptions): Promise<ResearchJob> {
    requireString('id', id);
    return parseResearchJob(
      await this.transport.json({
        method: 'GET',
        path: `/research/${encodeURIComponent(id)}`,
        retryable: true,
        options: opts,
      }),
    );
  }
}
