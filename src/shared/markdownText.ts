// Text from the gateway placed into chat markdown: escaped so an id or a server message cannot
// add links, images, HTML or emphasis (VS Code renders chat markdown untrusted, but it still
// renders). Only characters that act inside a line are escaped, so ids stay readable.

export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

/** Inline code that cannot be closed early by a backtick inside the text. */
export function inlineCode(text: string): string {
  const clean = text.replace(/`/g, "'").replace(/\r?\n/g, ' ');
  return `\`${clean}\``;
}
