// Bundle sizes as shipped: the production build (esbuild.js --production: minified, no source
// maps) staged in a folder of its own, each bundle's raw and gzip size (level 9, about what the
// .vsix's zip deflate gives), and a check that the build wrote no source map.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { stageProductionBuild } from './activation/stageProduction';
import { BUNDLE_TARGETS, verdict, verdictTable, type Verdict } from './activation/targets';

export interface BundleBenchOptions {
  readonly outDir: string;
}

interface BundleSize {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

function bundleSize(root: string, file: string): BundleSize {
  const content = readFileSync(join(root, file));
  return { file, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
}

const kb = (bytes: number): number => bytes / 1024;

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

export async function runBundleBench(options: BundleBenchOptions): Promise<string> {
  const stage = stageProductionBuild();
  try {
    const dist = join(stage, 'dist');
    const files = filesUnder(dist);
    const bundles = files
      .filter((f) => f.endsWith('.js'))
      .sort()
      .map((f) => bundleSize(dist, f));
    const maps = files.filter((f) => f.endsWith('.map'));
    const find = (file: string): BundleSize =>
      bundles.find((b) => b.file === file) ?? { file, bytes: NaN, gzipBytes: NaN };
    const extension = find('extension.js');
    const extensionSide = bundles.filter((b) => b.file === 'extension.js' || b.file.startsWith('vendor/'));
    const extensionSideGzip = extensionSide.reduce((sum, b) => sum + b.gzipBytes, 0);
    const small = bundles.filter((b) => b.file.startsWith('webview/') && b.file !== 'webview/chat.js');
    const verdicts: Verdict[] = [
      verdict(BUNDLE_TARGETS.extension, kb(extensionSideGzip)),
      verdict(BUNDLE_TARGETS.extensionRaw, kb(extension.bytes)),
      verdict(BUNDLE_TARGETS.chatWebview, kb(find('webview/chat.js').gzipBytes)),
      ...small.map((b) => verdict({ ...BUNDLE_TARGETS.smallWebviews, what: `dist/${b.file} gzip` }, kb(b.gzipBytes))),
    ];
    const table = [
      '# Bundle sizes',
      '',
      `Production build (node esbuild.js --production: minified, no source maps), ${new Date().toISOString()}. gzip is level 9.`,
      '',
      '| bundle | minified KB | gzip KB |',
      '| --- | --- | --- |',
      ...bundles.map((b) => `| dist/${b.file} | ${kb(b.bytes).toFixed(1)} | ${kb(b.gzipBytes).toFixed(1)} |`),
      '',
      `Source maps in the production build: ${maps.length ? `**${maps.join(', ')}**` : 'none'}.`,
      '',
      verdictTable(verdicts),
    ].join('\n');
    mkdirSync(options.outDir, { recursive: true });
    writeFileSync(join(options.outDir, 'bundles.md'), `${table}\n`);
    return table;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
