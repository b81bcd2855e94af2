// A long conversation as a user would have it after a day of work: alternating questions and
// markdown answers with what models really write (paragraphs with inline code and links, lists,
// headings, tables, quotes, and a fenced code block in most answers, in a dozen languages).
// Deterministic (seeded), so every run opens the same text.
import type { AssistantTurn, Conversation, UserTurn } from '../../../src/shared/chatModel';
import { seededRandom } from '../../harness/seededRandom';

const TOPICS = [
  'the cache layer',
  'the retry policy',
  'the upload handler',
  'the settings page',
  'the build script',
  'the test runner',
  'the parser',
  'the database migration',
  'the webhook',
  'the rate limiter',
];
const VERBS = ['refactor', 'debug', 'speed up', 'document', 'test', 'simplify', 'harden', 'review'];
const WORDS =
  'the request handler reads the body once and keeps a reference so later middleware can parse it again without waiting on the socket which also means errors surface earlier and the stack trace points at the real caller instead of a timer callback'.split(
    ' ',
  );

const CODE: Record<string, (n: number) => string> = {
  typescript: (n) =>
    `export async function load${n}(id: string, signal?: AbortSignal): Promise<Item | undefined> {\n  const cached = cache.get(id);\n  if (cached && Date.now() - cached.at < TTL_MS) return cached.value;\n  const response = await fetch(\`/api/items/\${encodeURIComponent(id)}\`, { signal });\n  if (response.status === 404) return undefined;\n  if (!response.ok) throw new HttpError(response.status, await response.text());\n  const value = (await response.json()) as Item;\n  cache.set(id, { value, at: Date.now() });\n  return value;\n}\n`,
  python: (n) =>
    `def retry_${n}(fn, attempts=3, base_delay=0.2):\n    """Calls fn, retrying transient errors with exponential backoff."""\n    for attempt in range(attempts):\n        try:\n            return fn()\n        except (TimeoutError, ConnectionError) as error:\n            if attempt == attempts - 1:\n                raise\n            delay = base_delay * (2 ** attempt)\n            logging.warning("attempt %d failed: %s; retrying in %.1fs", attempt + 1, error, delay)\n            time.sleep(delay)\n`,
  json: (n) =>
    `{\n  "name": "service-${n}",\n  "version": "1.${n % 10}.0",\n  "scripts": {\n    "build": "tsc -p .",\n    "test": "mocha 'out/**/*.test.js'"\n  },\n  "dependencies": {\n    "undici": "^7.0.0",\n    "zod": "^3.23.0"\n  }\n}\n`,
  bash: (n) =>
    `#!/usr/bin/env bash\nset -euo pipefail\nfor file in src/**/*.ts; do\n  if grep -q "TODO(${n})" "$file"; then\n    echo "pending: $file"\n  fi\ndone\nnpm run build && npm test -- --grep "case ${n}"\n`,
  go: (n) =>
    `func Handle${n}(w http.ResponseWriter, r *http.Request) {\n\tctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)\n\tdefer cancel()\n\titem, err := store.Get(ctx, r.PathValue("id"))\n\tif errors.Is(err, ErrNotFound) {\n\t\thttp.NotFound(w, r)\n\t\treturn\n\t}\n\tif err != nil {\n\t\thttp.Error(w, err.Error(), http.StatusInternalServerError)\n\t\treturn\n\t}\n\tjson.NewEncoder(w).Encode(item)\n}\n`,
  rust: (n) =>
    `pub fn parse_${n}(input: &str) -> Result<Vec<Token>, ParseError> {\n    let mut tokens = Vec::new();\n    for (line_no, line) in input.lines().enumerate() {\n        let trimmed = line.trim();\n        if trimmed.is_empty() || trimmed.starts_with('#') {\n            continue;\n        }\n        tokens.push(Token::parse(trimmed).map_err(|e| ParseError::at(line_no + 1, e))?);\n    }\n    Ok(tokens)\n}\n`,
  sql: (n) =>
    `SELECT u.id, u.email, COUNT(o.id) AS orders_${n}\nFROM users u\nLEFT JOIN orders o ON o.user_id = u.id AND o.created_at > NOW() - INTERVAL '30 days'\nWHERE u.deleted_at IS NULL\nGROUP BY u.id, u.email\nHAVING COUNT(o.id) > ${n % 5}\nORDER BY orders_${n} DESC\nLIMIT 50;\n`,
  yaml: (n) =>
    `name: ci-${n}\non:\n  push:\n    branches: [main]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with:\n          node-version: 22\n      - run: npm ci && npm test\n`,
  css: (n) =>
    `.panel-${n} {\n  display: grid;\n  grid-template-columns: minmax(0, 1fr) auto;\n  gap: 8px;\n  padding: 4px 8px;\n  color: var(--vscode-foreground);\n  border-bottom: 1px solid var(--vscode-panel-border);\n}\n.panel-${n}:hover { background: var(--vscode-list-hoverBackground); }\n`,
  java: (n) =>
    `public final class Cache${n}<K, V> {\n    private final Map<K, Entry<V>> entries = new ConcurrentHashMap<>();\n    private final Duration ttl;\n\n    public Cache${n}(Duration ttl) { this.ttl = ttl; }\n\n    public Optional<V> get(K key) {\n        Entry<V> entry = entries.get(key);\n        if (entry == null || entry.expired(ttl)) return Optional.empty();\n        return Optional.of(entry.value());\n    }\n}\n`,
};
const LANGUAGES = Object.keys(CODE);

function sentence(next: () => number, words: number): string {
  const start = Math.floor(next() * WORDS.length);
  const picked = Array.from({ length: words }, (_, i) => WORDS[(start + i * 3) % WORDS.length] as string);
  const text = picked.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function answer(next: () => number, n: number, topic: string): string {
  const language = LANGUAGES[n % LANGUAGES.length] as string;
  const parts: string[] = [
    `To ${VERBS[n % VERBS.length]} **${topic}**, start from \`load${n}()\`: ${sentence(next, 14)} See [the docs](https://example.com/docs/${n}) for the details.`,
  ];
  if (n % 3 === 0) parts.push(`### What changes`);
  parts.push(
    [
      '- keep `TTL_MS` at 30 s',
      `- pass the \`signal\` through to every call in step ${n % 7}`,
      `- ${sentence(next, 8)}`,
      '- log the status, never the body',
    ]
      .slice(0, 3 + (n % 2))
      .join('\n'),
  );
  if (n % 5 !== 4)
    parts.push(`Here is the ${language} version:`, `\`\`\`${language}\n${CODE[language]?.(n) ?? ''}\`\`\``);
  if (n % 4 === 1)
    parts.push(
      `| option | default | effect |\n|---|---:|---|\n| \`attempts\` | 3 | tries before giving up |\n| \`baseDelay\` | 200 ms | first backoff |\n| \`maxDelay\` | ${n % 9} s | cap of the backoff |`,
    );
  if (n % 6 === 2) parts.push(`> **Note:** ${sentence(next, 12)}`);
  parts.push(`1. ${sentence(next, 9)}\n2. Run the tests again with \`npm test\`.\n3. ${sentence(next, 7)}`);
  parts.push(sentence(next, 18 + Math.floor(next() * 12)));
  return parts.join('\n\n');
}

export function longConversation(messages: number): Conversation {
  const next = seededRandom(42);
  const turns: (UserTurn | AssistantTurn)[] = [];
  const start = Date.UTC(2026, 10, 20, 9, 0, 0);
  for (let i = 0; i < messages / 2; i++) {
    const topic = TOPICS[i % TOPICS.length] as string;
    const createdAt = start + i * 60_000;
    const snippet = i % 4 === 0 ? `\n\n    const x = await load${i}(id);\n    // why is this slow?` : '';
    turns.push({
      role: 'user',
      id: `u${i}`,
      text: `How do I ${VERBS[i % VERBS.length]} ${topic}? ${sentence(next, 10)}${snippet}`,
      attachments: [],
      createdAt,
    });
    const content = answer(next, i, topic);
    turns.push({
      role: 'assistant',
      id: `a${i}`,
      model: 'sim-openai/gpt-sim-mini',
      content,
      reasoning: '',
      toolSteps: [],
      status: 'done',
      finishReason: 'stop',
      usage: { promptTokens: 200 + i * 40, completionTokens: Math.round(content.length / 4) },
      wire: [],
      createdAt: createdAt + 5_000,
    });
  }
  return {
    id: 'bench-long',
    title: `A ${messages}-message conversation`,
    model: 'sim-openai/gpt-sim-mini',
    parameters: {},
    turns,
    createdAt: start,
    updatedAt: start + messages * 30_000,
  };
}

/**
 * The answers of the long conversation one after another, cut into stream pieces (a word with its
 * whitespace, as the gateway cuts) up to `bytes` of UTF-8: a long reply as models write it, with
 * many paragraphs, lists and code blocks (the diagnostic counterpart of the bench model's text).
 */
export function markdownReplyPieces(bytes: number): string[] {
  const text = longConversation(500)
    .turns.map((turn) => (turn.role === 'assistant' ? turn.content : ''))
    .filter(Boolean)
    .join('\n\n');
  const pieces: string[] = [];
  let total = 0;
  for (const piece of text.match(/\s*\S+\s*/g) ?? []) {
    if (total >= bytes) break;
    pieces.push(piece);
    total += Buffer.byteLength(piece, 'utf8');
  }
  return pieces;
}
