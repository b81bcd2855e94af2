// Fails the build when an import crosses a layer boundary (see ../shared/design/architecture.md):
//   src/shared    -> src/shared only (no vscode, no node built-ins, no DOM-only packages)
//   src/core      -> src/core, src/shared, node built-ins, undici, eventsource-parser, diff (jsdiff: line diffs,
//                    patches, review diffs), marked (its lexer finds a reply's code blocks)
//   src/webview   -> src/webview, src/shared, marked, dompurify, highlight.js (never vscode or node built-ins)
//   src/extension -> src/extension, src/core, src/shared, vscode, node built-ins, packages
// Inside src/extension, folders stand in tiers (EXTENSION_TIERS): a file imports from its own folder
// or from a lower tier, never sideways or up, so shared services never depend on a feature.
// Host-free code lives in src/core: a file under src/extension that imports `vscode` neither
// directly nor through its src/extension imports belongs below the host (HOST_FREE_ALLOWED excepted).
// Imports are read with TypeScript's own pre-processor, so `import`, `export ... from`,
// `import()` and `require()` are all seen.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ts = createRequire(import.meta.url)('typescript');
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** @type {Record<string, { layers: string[], packages: string[] | 'any', builtins: boolean, vscode: boolean }>} */
export const rules = {
  shared: { layers: ['shared'], packages: [], builtins: false, vscode: false },
  core: {
    layers: ['core', 'shared'],
    packages: ['undici', 'eventsource-parser', 'diff', 'marked'],
    builtins: true,
    vscode: false,
  },
  webview: {
    layers: ['webview', 'shared'],
    packages: ['marked', 'dompurify', 'highlight.js'],
    builtins: false,
    vscode: false,
  },
  extension: { layers: ['extension', 'core', 'shared'], packages: 'any', builtins: true, vscode: true },
};

/**
 * src/extension's folders (and top-level files), lowest first. Services sit low; a feature sits
 * above what it uses; the composition root (activation, test API) is on top. A name missing
 * here is a build error, so every new folder is placed on purpose.
 */
export const EXTENSION_TIERS = [
  ['config.ts', 'contextKeys.ts', 'lifecycle.ts', 'log.ts'],
  ['apiKey', 'webview', 'workspaceFiles'],
  ['gateway'],
  ['models', 'account', 'checkpoints', 'errors'],
  [
    'apply',
    'edits',
    'terminal',
    'media',
    'research',
    'search',
    'languageModels',
    'toolServers',
    'completions',
    'commitMessage',
  ],
  ['chat', 'participant', 'lmTools', 'inlineEdit'],
  ['testApi.ts', 'uiTestSeed.ts'],
  ['extension.ts'],
];

/**
 * Files (or folders, ending in /) under src/extension that may stay there without touching vscode.
 * Keep it short: each entry says why the file belongs to the host anyway.
 */
export const HOST_FREE_ALLOWED = [
  // The host's webview page nonce (node:crypto): it exists only for the pages the host serves.
  'webview/nonce.ts',
];

function extensionTier(name) {
  const tier = EXTENSION_TIERS.findIndex((names) => names.includes(name));
  return tier < 0 ? undefined : tier;
}

/** The import rule inside src/extension: own folder, or a strictly lower tier. */
function extensionFolderViolation(srcRoot, file, target, where, spec) {
  const from = relative(join(srcRoot, 'extension'), file).split(sep)[0];
  const to = relative(join(srcRoot, 'extension'), target).split(sep)[0];
  if (from === to) return undefined;
  const fromTier = extensionTier(from);
  if (fromTier === undefined)
    return `${where}: src/extension/${from} has no place in EXTENSION_TIERS (scripts/checkLayers.mjs)`;
  const toName = extensionTier(to) === undefined && extensionTier(`${to}.ts`) !== undefined ? `${to}.ts` : to;
  const toTier = extensionTier(toName);
  if (toTier === undefined)
    return `${where}: src/extension/${to} has no place in EXTENSION_TIERS (scripts/checkLayers.mjs)`;
  if (toTier >= fromTier)
    return `${where}: src/extension/${from} may not import from src/extension/${toName} (same tier or above: move the shared piece lower) ('${spec}')`;
  return undefined;
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Returns the violations of one source file, as readable sentences. */
export function violationsOf(srcRoot, file, text) {
  const layer = relative(srcRoot, file).split(sep)[0];
  const rule = rules[layer];
  if (!rule) return [];
  const found = [];
  const where = relative(process.cwd(), file);
  for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
    if (spec.startsWith('.')) {
      const target = resolve(dirname(file), spec);
      const targetLayer = relative(srcRoot, target).split(sep)[0];
      if (!rule.layers.includes(targetLayer))
        found.push(`${where}: src/${layer} may not import from src/${targetLayer} ('${spec}')`);
      else if (layer === 'extension' && targetLayer === 'extension') {
        const problem = extensionFolderViolation(srcRoot, file, target, where, spec);
        if (problem) found.push(problem);
      }
    } else if (spec === 'vscode') {
      if (!rule.vscode) found.push(`${where}: src/${layer} may not import 'vscode'`);
    } else if (builtins.has(spec)) {
      if (!rule.builtins) found.push(`${where}: src/${layer} may not import the node built-in '${spec}'`);
    } else if (rule.packages !== 'any' && !rule.packages.includes(packageName(spec))) {
      found.push(
        `${where}: src/${layer} may not import the package '${spec}' (allowed: ${rule.packages.join(', ') || 'none'})`,
      );
    }
  }
  return found;
}

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts|js|mjs)$/.test(name) ? [path] : [];
  });
}

/** The src/extension file a relative specifier names, when it exists. */
function extensionTarget(extensionRoot, file, spec) {
  const base = resolve(dirname(file), spec);
  if (!base.startsWith(extensionRoot + sep)) return undefined;
  return [base, `${base}.ts`, join(base, 'index.ts')].find((path) => existsSync(path) && statSync(path).isFile());
}

/**
 * The host-free rule: files under src/extension that reach `vscode` neither directly nor through
 * the src/extension files they import. `texts` maps every checked file to its text.
 */
export function hostFreeViolations(srcRoot, texts) {
  const extensionRoot = join(srcRoot, 'extension');
  const files = [...texts.keys()].filter((file) => file.startsWith(extensionRoot + sep) && /\.tsx?$/.test(file));
  const importers = new Map(files.map((file) => [file, []]));
  const host = new Set();
  for (const file of files) {
    for (const { fileName: spec } of ts.preProcessFile(texts.get(file), true, true).importedFiles) {
      if (spec === 'vscode') host.add(file);
      else if (spec.startsWith('.')) importers.get(extensionTarget(extensionRoot, file, spec))?.push(file);
    }
  }
  // Whoever imports a host file is a host file too.
  const queue = [...host];
  while (queue.length) {
    for (const importer of importers.get(queue.pop()) ?? []) {
      if (!host.has(importer)) {
        host.add(importer);
        queue.push(importer);
      }
    }
  }
  return files
    .filter((file) => !host.has(file))
    .filter((file) => {
      const name = relative(extensionRoot, file).split(sep).join('/');
      return !HOST_FREE_ALLOWED.some((allowed) =>
        allowed.endsWith('/') ? name.startsWith(allowed) : name === allowed,
      );
    })
    .map(
      (file) =>
        `${relative(process.cwd(), file)}: host-free (imports vscode neither directly nor through src/extension): move it to src/core, or list it in HOST_FREE_ALLOWED (scripts/checkLayers.mjs) with the reason`,
    );
}

/** Checks every file under srcRoot; returns the violations. */
export function checkLayers(srcRoot) {
  const texts = new Map(sourceFiles(srcRoot).map((file) => [file, readFileSync(file, 'utf8')]));
  return [
    ...[...texts].flatMap(([file, text]) => violationsOf(srcRoot, file, text)),
    ...hostFreeViolations(srcRoot, texts),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const srcRoot = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'src'));
  const violations = checkLayers(srcRoot);
  if (violations.length) {
    console.error(`Layer check failed (${violations.length}):\n  ${violations.join('\n  ')}`);
    process.exit(1);
  }
  console.log('layers: clean');
}
