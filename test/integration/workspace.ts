/** The files of the folder the integration suite opens. */
export const INTEGRATION_WORKSPACE: Record<string, string> = {
  'README.md': '# Integration workspace\n',
  'src/hello.ts': 'export const greeting = "hello";\n',
  // Named after the chat's read tool: the local gateway's model calls a tool the prompt names,
  // with the prompt as its argument, so the prompt "read_file.md" reads this file.
  'read_file.md': '# Notes\n\nThe code word is PAPAYA.\n',
  // What the workspace tools must not hand a model (workspaceTools.test.ts). Each holds the
  // search needle, so a search that looked inside would show it.
  '.env.read_file': 'API_TOKEN=ENVSECRET-7731\n# NEEDLE-4471 search_files\n',
  'node_modules/dep/index.js': '// NEEDLE-4471 search_files in a dependency\n',
  'notes/.gitignore': '*.local.md\n!keep.local.md\n',
  'notes/private.local.md': 'Gitignored: NEEDLE-4471 search_files\n',
  'notes/keep.local.md': 'Re-included by a negation: NEEDLE-4471 search_files\n',
  'hidden/by-setting.txt': 'files.exclude hides this: NEEDLE-4471 search_files\n',
  'src/needle.ts': '// NEEDLE-4471 search_files where it may be found\n',
};
