// A folder on disk as an index source (relative paths as file ids), and /embeddings of a client
// as the embedder: the core indexer without VS Code, for unit tests and the bench.
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { EmbedBatch, IndexSource } from '../../../src/core/search/semanticIndex';
import type { FileState } from '../../../src/core/search/indexPlan';
import type { GatewayClient } from '../../../src/core/transport/client';

export function listFolder(root: string): Map<string, FileState> {
  const files = new Map<string, FileState>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const stat = statSync(path);
        files.set(relative(root, path), { mtime: stat.mtimeMs, size: stat.size });
      }
    }
  };
  walk(root);
  return files;
}

export function folderSource(root: string): IndexSource {
  return { read: (file) => readFile(join(root, file), 'utf8').catch(() => undefined) };
}

/** Embeds through the client, counting requests and inputs. */
export function clientEmbedder(
  client: GatewayClient,
  model: string,
): EmbedBatch & { requests: number; inputs: number } {
  const embed = Object.assign(
    async (texts: string[], signal?: AbortSignal) => {
      embed.requests++;
      embed.inputs += texts.length;
      const list = await client.embeddings.create({ model, input: texts, encoding_format: 'base64' }, { signal });
      return [...list.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    },
    { requests: 0, inputs: 0 },
  );
  return embed;
}
