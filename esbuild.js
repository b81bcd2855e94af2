// Builds the extension (node/cjs, `vscode` external) and the webview scripts (browser), and, for
// development and tests, transpiles src/ and test/ file by file into out/ so that mocha can run
// them in plain Node and inside the extension host.
//   node esbuild.js               development build (sourcemaps) + out/ for tests
//   node esbuild.js --production  minified bundles only (what the .vsix ships)
//   node esbuild.js --watch       rebuild on change
//   --dist=DIR                    write the bundles to DIR instead of dist/ (the bench stages a
//                                 production build there without touching the developer's dist/)
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const distArg = process.argv.find((arg) => arg.startsWith('--dist='));
const dist = distArg ? path.resolve(distArg.slice('--dist='.length)) : path.join(__dirname, 'dist');

/** The webview entry points: one bundle per webview, named after its folder. */
const webviews = ['chat', 'audio', 'gallery'];

function listTs(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listTs(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Prints errors in the `file:line:col` form the VS Code problem matcher understands. */
const reporter = {
  name: 'reporter',
  setup(build) {
    // The watch task's problem matcher knows a rebuild from these two lines (.vscode/tasks.json).
    if (watch) build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(
          `✘ [ERROR] ${text}${location ? `\n    ${location.file}:${location.line}:${location.column}:` : ''}`,
        );
      }
      if (watch) console.log(`[watch] build finished (${result.errors.length} errors)`);
    });
  },
};

/**
 * Libraries the extension needs only for some features, built into files of their own under
 * dist/vendor/ and loaded on first use. In the extension bundle each is a few lines of getters
 * (lazyVendorShims): VS Code reads and compiles dist/extension.js before activate() (its "Load
 * Code"), and these were about 400 KB of its 816 KB. `undici` is scripts/undiciEntry.js: the
 * members src/ uses, each loaded on first use, instead of undici's index.js, which evaluates all
 * of undici (fetch, WebSocket, caches, mocks...).
 */
const lazyVendors = {
  undici: path.join(__dirname, 'scripts', 'undiciEntry.js'),
  marked: 'marked',
  diff: 'diff',
};

/** The vendor bundles (CommonJS, node), built before the extension so their export names are known. */
async function buildVendors(common) {
  await Promise.all(
    Object.entries(lazyVendors).map(([name, entry]) =>
      esbuild.build({
        ...common,
        sourcemap: false,
        entryPoints: { [name]: entry },
        outdir: path.join(dist, 'vendor'),
        platform: 'node',
        format: 'cjs',
        target: 'node22',
        absWorkingDir: __dirname,
      }),
    ),
  );
  // The names each one exports (reading them evaluates nothing lazy: undici's members are getters).
  return Object.fromEntries(
    Object.keys(lazyVendors).map((name) => {
      const file = path.join(dist, 'vendor', `${name}.js`);
      delete require.cache[file];
      return [name, Object.keys(require(file))];
    }),
  );
}

/** `import { x } from '<vendor>'` in the extension bundle gets getters that require dist/vendor/<vendor>.js when first read. */
function lazyVendorShims(exportNames) {
  return {
    name: 'lazy-vendor-shims',
    setup(build) {
      const names = Object.keys(lazyVendors).join('|');
      build.onResolve({ filter: new RegExp(`^(${names})$`) }, (args) => ({
        path: args.path,
        namespace: 'lazy-vendor',
      }));
      // The shim's own require stays a run-time require, relative to dist/extension.js.
      build.onResolve({ filter: /^\.\/vendor\//, namespace: 'lazy-vendor' }, (args) => ({
        path: args.path,
        external: true,
      }));
      build.onLoad({ filter: /.*/, namespace: 'lazy-vendor' }, (args) => ({
        loader: 'js',
        contents: [
          'let loaded;',
          `const load = () => loaded || (loaded = require('./vendor/${args.path}.js'));`,
          `for (const name of ${JSON.stringify(exportNames[args.path])}) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });`,
        ].join('\n'),
      }));
    },
  };
}

/**
 * One `vscode` namespace for the whole bundle. esbuild gives every module that imports the external
 * `vscode` its own copy of the API object's properties (a getter per member, ~200 members, in ~150
 * modules) while the bundle loads; importing it through one ES module re-export makes that a single copy.
 */
const oneVscodeNamespace = {
  name: 'one-vscode-namespace',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-namespace'
        ? { path: 'vscode', external: true }
        : { path: 'vscode', namespace: 'vscode-namespace' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-namespace' }, () => ({
      contents: "export * from 'vscode';",
      loader: 'js',
    }));
  },
};

async function main() {
  const { checkLayers } = await import('./scripts/checkLayers.mjs');
  const violations = checkLayers(path.join(__dirname, 'src'));
  if (violations.length) {
    console.error(`Layer check failed:\n  ${violations.join('\n  ')}`);
    process.exit(1);
  }

  // Production is what the .vsix ships: minified, and no source maps (.vscodeignore keeps any out too).
  const common = { bundle: true, minify: production, sourcemap: !production, logLevel: 'silent', plugins: [reporter] };
  const vendorExports = await buildVendors(common);
  const configs = [
    {
      ...common,
      entryPoints: ['src/extension/extension.ts'],
      outfile: path.join(dist, 'extension.js'),
      platform: 'node',
      format: 'cjs',
      target: 'node22',
      external: ['vscode'],
      plugins: [...common.plugins, lazyVendorShims(vendorExports), oneVscodeNamespace],
    },
    {
      ...common,
      entryPoints: Object.fromEntries(webviews.map((name) => [name, `src/webview/${name}/main.ts`])),
      outdir: path.join(dist, 'webview'),
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
    },
  ];
  if (!production) {
    configs.push({
      entryPoints: [...listTs('src'), ...listTs('test')],
      outdir: 'out',
      outbase: '.',
      bundle: false,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      sourcemap: 'inline',
      logLevel: 'silent',
      plugins: [reporter],
    });
  }

  if (watch) {
    for (const config of configs) await (await esbuild.context(config)).watch();
    console.log('[watch] watching for changes');
    return;
  }
  const results = await Promise.allSettled(configs.map((config) => esbuild.build(config)));
  if (results.some((r) => r.status === 'rejected')) process.exit(1);
  copyStaticAssets();
}

/** Codicons ship as a font + CSS in node_modules; the webviews load them from dist/. */
function copyStaticAssets() {
  const from = path.join(__dirname, 'node_modules', '@vscode', 'codicons', 'dist');
  if (!fs.existsSync(from)) return;
  const to = path.join(dist, 'codicons');
  fs.mkdirSync(to, { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(from, file), path.join(to, file));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
