// The folder a newcomer's VS Code opens (`npm start`, and F5's Run Extension): a README that says
// where to look, and a source file to ask about and apply changes to.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const DEMO_FOLDER_FILES: Readonly<Record<string, string>> = {
  'README.md': '# Unified Inference demo folder\n\nOpen the Unified Inference view in the activity bar.\n',
  'src/example.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
};

/** Writes the demo files into `folder`, leaving files a user already changed there as they are. */
export function writeDemoFolder(folder: string): void {
  for (const [path, text] of Object.entries(DEMO_FOLDER_FILES)) {
    const file = join(folder, ...path.split('/'));
    if (existsSync(file)) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
