// Every codicon the extension names, read from its sources: a name that is not in the icon set draws
// as nothing (an offline status item showed a bare "$25.00" that read as a low balance). The host
// side (status bar, menus, tree items, quick picks) draws from the workbench's icon registry; the
// webviews draw from the codicon font the extension ships. Two lists, so each is checked against
// the set that draws it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO_ROOT = join(__dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(REPO_ROOT, dir, file));
}

const NAME = /'([a-z][a-z0-9]*(?:-[a-z0-9]+)*)'/g;

function literals(text: string): string[] {
  return [...text.matchAll(NAME)].map((m) => m[1] as string);
}

/** The text of a call's arguments from `start` (just after its opening parenthesis) to its closing one. */
function callArguments(text: string, start: number): string {
  let depth = 1;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(start, i);
  }
  return text.slice(start);
}

/** Names in maps of icons (`const STEP_ICONS = { done: 'check', ... }`) and `icon: 'name'` fields. */
function mappedNames(text: string): string[] {
  const names: string[] = [];
  for (const map of text.matchAll(/const [A-Z_]*ICONS\b[^=]*=\s*\{([^}]*)\}/g))
    for (const value of (map[1] as string).matchAll(/:\s*'([^']+)'/g)) names.push(...(value[1] as string).split(' '));
  for (const field of text.matchAll(/\bicon:\s*'([a-z0-9-]+)'/g)) names.push(field[1] as string);
  return names.filter((name) => !name.startsWith('codicon-') && name !== 'loading');
}

/** `$(name)` and `$(name~spin)` in labels, and names passed to ThemeIcon. */
export function hostCodicons(): Set<string> {
  const names = new Set<string>();
  const texts = [
    ...['src/core', 'src/extension', 'src/shared'].flatMap(sourceFiles).map((file) => readFileSync(file, 'utf8')),
    readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'),
    readFileSync(join(REPO_ROOT, 'package.nls.json'), 'utf8'),
  ];
  for (const text of texts) {
    for (const m of text.matchAll(/\$\(([a-z0-9-]+)(?:~[a-z]+)?\)/g)) names.add(m[1] as string);
    for (const m of text.matchAll(/ThemeIcon\(/g)) {
      // The icon's name is the first argument; a ThemeColor after it names a colour, not an icon.
      const args = callArguments(text, (m.index ?? 0) + m[0].length).split(/new vscode\.ThemeColor/)[0] as string;
      for (const name of literals(args)) names.add(name);
    }
    for (const name of mappedNames(text)) names.add(name);
  }
  return names;
}

/** `codicon-name` classes and names passed to the webviews' icon builders. */
export function webviewCodicons(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles('src/webview')) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/codicon-([a-z0-9]+(?:-[a-z0-9]+)*)/g))
      if (!(m[1] as string).startsWith('modifier-')) names.add(m[1] as string);
    for (const m of text.matchAll(/\b(?:icon|iconButton)\(/g)) {
      const args = callArguments(text, (m.index ?? 0) + m[0].length);
      // The first argument only: the rest are labels and options.
      const first = args.split(/,(?![^(]*\))/)[0] as string;
      for (const name of literals(first)) names.add(name);
    }
    for (const name of mappedNames(text)) names.add(name);
  }
  return names;
}

/** The names the codicon stylesheet the webviews load defines (`.codicon-name:before`). */
export function shippedCodicons(): Set<string> {
  const css = readFileSync(join(REPO_ROOT, 'node_modules', '@vscode', 'codicons', 'dist', 'codicon.css'), 'utf8');
  return new Set([...css.matchAll(/\.codicon-([a-z0-9-]+):before/g)].map((m) => m[1] as string));
}
