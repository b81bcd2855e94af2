// Markdown as a listener should hear it: no syntax characters read out, code blocks announced
// instead of spelled, link text without the address.

/** Turns an answer's markdown into plain text for text-to-speech. */
export function speechText(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n[\s\S]*?(```|$)/g, ' (code block omitted) ')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/<[^>\n]+>/g, ' ')
    .replace(/^\s{0,3}#{1,6}\s+(.*)$/gm, '$1.')
    .replace(/^\s*>\s?/gm, '')
    .replace(/^\s*([-*+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*\|?\s*:?-{3,}.*$/gm, '')
    .replace(/\|/g, ', ')
    .replace(/(\*\*|__|\*|_|~~)(?=\S)([^\n]*?\S)\1/g, '$2')
    .replace(/\.{2,}\s*$/gm, '.')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{2,}/g, '\n')
    .trim();
}
