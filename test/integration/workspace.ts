/** The files of the folder the integration suite opens. */
export const INTEGRATION_WORKSPACE: Record<string, string> = {
  'README.md': '# Integration workspace\n',
  'src/hello.ts': 'export const greeting = "hello";\n',
};
