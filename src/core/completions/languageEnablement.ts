// Which languages get completions, from an `enable` map like the peers' (`{"*": true,
// "markdown": false}`): the language's own entry, else `*`, else on.

export function completionsEnabledFor(languages: Readonly<Record<string, boolean>>, languageId: string): boolean {
  const own = Object.prototype.hasOwnProperty.call(languages, languageId) ? languages[languageId] : undefined;
  if (own !== undefined) return own;
  const any = Object.prototype.hasOwnProperty.call(languages, '*') ? languages['*'] : undefined;
  return any ?? true;
}
