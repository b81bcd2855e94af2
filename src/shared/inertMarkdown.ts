// Markdown from a server made inert for VS Code's markdown preview: nothing in it loads from the
// network when it is shown. The preview (its "strict" security, the default) loads https images,
// so a research report with `![](https://tracker/...)` or `<img src=...>` would tell a third party
// when and where it was read. Two characters carry every way to load something: `!` right before
// `[` (inline, reference and shortcut images) and `<` (raw HTML: img, picture, video, iframe, style,
// link; autolinks too). A zero-width space after each breaks the syntax without parsing markdown
// (a parser of our own could disagree with the preview's about where a code block ends, and a
// code block is where an image would then slip through): the text reads the same, links stay
// links, and code shows the same characters. Pure: no vscode, no node.

const ZERO_WIDTH_SPACE = '\u200B';

export function inertMarkdown(markdown: string): string {
  return markdown.replace(/!\[/g, `!${ZERO_WIDTH_SPACE}[`).replace(/</g, `<${ZERO_WIDTH_SPACE}`);
}
