// Whether a fenced code block has its closing fence: the chat view waits for it before a block is
// complete, and Apply refuses a block cut off inside (a reply that stopped partway).

/** Whether a code token's source has its closing fence (indented code has none to wait for). */
export function isClosedFence(raw: string): boolean {
  const open = /^ {0,3}(`{3,}|~{3,})/.exec(raw)?.[1];
  if (!open) return true;
  const lines = raw.replace(/\n+$/, '').split('\n');
  const last = lines.length > 1 ? (lines[lines.length - 1] ?? '') : '';
  return new RegExp(`^ {0,3}${open[0] === '`' ? '`' : '~'}{${open.length},}[ \\t]*$`).test(last);
}
