// Writes l10n/bundle.l10n.json from the l10n.t(...) calls in src/extension and src/core (core's
// host-free code is handed a Translator, which the host backs with vscode.l10n), the same
// file `@vscode/l10n-dev export` makes (a translator copies it to bundle.l10n.<locale>.json).
// We parse with the TypeScript we already have instead of adding l10n-dev and its dependencies.
//
//   node scripts/l10nBundle.mjs            rewrite the bundle
//   node scripts/l10nBundle.mjs --check    exit 1 if the bundle is not what the sources say
//   --src <folder> --bundle <file>         other places (the unit test uses them)
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ts = createRequire(import.meta.url)('typescript');
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const srcRoots = args.includes('--src')
  ? [option('--src')]
  : [join(repo, 'src', 'extension'), join(repo, 'src', 'core')];
const bundleFile = option('--bundle', join(repo, 'l10n', 'bundle.l10n.json'));

const listTs = (folder) =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return listTs(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });

/** A string the parser can read without running code: 'a', "a", `a` (no ${}), or 'a' + 'b'. */
function literalText(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isParenthesizedExpression(node)) return literalText(node.expression);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = literalText(node.left);
    const right = literalText(node.right);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  return undefined;
}

/** `l10n.t(...)` whichever way l10n was reached: vscode.l10n.t, l10n.t after an import. */
const isL10nT = (callee) =>
  ts.isPropertyAccessExpression(callee) &&
  callee.name.text === 't' &&
  ((ts.isIdentifier(callee.expression) && callee.expression.text === 'l10n') ||
    (ts.isPropertyAccessExpression(callee.expression) && callee.expression.name.text === 'l10n'));

const bundle = {};
const problems = [];
for (const file of srcRoots.flatMap(listTs).sort()) {
  const text = readFileSync(file, 'utf8');
  if (!text.includes('l10n')) continue;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const where = (node) =>
    `${relative(repo, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node) => {
    if (ts.isCallExpression(node) && isL10nT(node.expression)) {
      const [first] = node.arguments;
      if (first && ts.isObjectLiteralExpression(first)) {
        // l10n.t({ message, args, comment }): the key carries the comment, as l10n-dev writes it.
        const prop = (name) =>
          first.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText(source) === name)?.initializer;
        const message = prop('message') && literalText(prop('message'));
        const commentNode = prop('comment');
        const comments = !commentNode
          ? []
          : ts.isArrayLiteralExpression(commentNode)
            ? commentNode.elements.map(literalText)
            : [literalText(commentNode)];
        if (message === undefined || comments.some((c) => c === undefined))
          problems.push(`${where(node)}: l10n.t needs a literal message and comment`);
        else if (comments.length === 0) bundle[message] = message;
        else bundle[`${message}/${comments.join('')}`] = { message, comment: comments };
      } else {
        const message = first && literalText(first);
        if (message === undefined) {
          problems.push(
            `${where(node)}: the first argument of l10n.t must be a literal string (put values in {0} placeholders): ${first ? first.getText(source).slice(0, 80) : '(none)'}`,
          );
          return;
        }
        // l10n.t(message, ...args) or l10n.t(message, [args]): a {n} with no value would show as is.
        const values =
          node.arguments.length === 2 && ts.isArrayLiteralExpression(node.arguments[1])
            ? node.arguments[1].elements.length
            : node.arguments.length - 1;
        const highest = Math.max(-1, ...[...message.matchAll(/\{(\d+)\}/g)].map((m) => Number(m[1])));
        if (highest >= values)
          problems.push(
            `${where(node)}: ${JSON.stringify(message)} uses {${highest}} but l10n.t gets ${values} value(s)`,
          );
        bundle[message] = message;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
const sorted = Object.fromEntries(
  Object.keys(bundle)
    .sort()
    .map((key) => [key, bundle[key]]),
);
const json = `${JSON.stringify(sorted, null, 2)}\n`;
if (args.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(bundleFile, 'utf8');
  } catch {
    /* missing counts as out of date */
  }
  if (current === json) {
    console.log(`${relative(repo, bundleFile)}: ${Object.keys(sorted).length} messages, in sync`);
  } else {
    const old = current ? JSON.parse(current) : {};
    const added = Object.keys(sorted).filter((key) => !(key in old));
    const removed = Object.keys(old).filter((key) => !(key in sorted));
    console.error(`${relative(repo, bundleFile)} is out of date: run node scripts/l10nBundle.mjs`);
    for (const key of added) console.error(`  missing: ${JSON.stringify(key)}`);
    for (const key of removed) console.error(`  unused: ${JSON.stringify(key)}`);
    process.exit(1);
  }
} else {
  mkdirSync(dirname(bundleFile), { recursive: true });
  writeFileSync(bundleFile, json);
  console.log(`${relative(repo, bundleFile)}: ${Object.keys(sorted).length} messages`);
}
