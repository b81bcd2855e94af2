/** The files of the folder the integration suite opens. */
export const INTEGRATION_WORKSPACE: Record<string, string> = {
  'README.md': '# Integration workspace\n',
  'src/hello.ts': 'export const greeting = "hello";\n',
  // Named after the chat's read tool: the local gateway's model calls a tool the prompt names,
  // with the prompt as its argument, so the prompt "read_file.md" reads this file.
  'read_file.md': '# Notes\n\nThe code word is PAPAYA.\n',
};
