// Entry point VS Code loads inside the extension host (extensionTestsPath): runs every
// test/integration/**/*.test.js with mocha and rejects when any fails.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha = require('mocha');
import CountingReporter = require('../harness/countingReporter');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.js') ? [path] : [];
  });
}

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, color: false, reporter: CountingReporter });
  const filter = process.env.UNIFIED_INFERENCE_TEST_GREP;
  if (filter) mocha.grep(filter);
  for (const file of testFiles(__dirname).sort()) mocha.addFile(file);
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} integration test(s) failed.`);
}
