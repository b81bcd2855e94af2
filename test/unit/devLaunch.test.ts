// F5 in a desktop VS Code cannot run on this machine (no desktop VS Code here), so what it runs is
// checked instead: the launch configurations name tasks that exist, the pre-launch task's command
// is an npm script that starts the local gateway and prints the line its problem matcher waits
// for, the settings it writes point at that gateway, and the demo key the launch passes opens it.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_API_KEY } from '../gateway/index';
import { READY_LINE } from '../harness/devHost';
import { REPO_ROOT } from '../harness/testHost';

type Json = Record<string, unknown>;

/** The .vscode files are JSON with whole-line comments (as VS Code writes them). */
function readJsonc(path: string): Json {
  const text = readFileSync(join(REPO_ROOT, path), 'utf8');
  return JSON.parse(
    text
      .split('\n')
      .filter((line) => !/^\s*\/\//.test(line))
      .join('\n'),
  ) as Json;
}

describe('F5 (.vscode launch and tasks)', () => {
  const launch = readJsonc('.vscode/launch.json');
  const tasks = readJsonc('.vscode/tasks.json');
  const configurations = launch.configurations as Json[];
  const taskList = tasks.tasks as Json[];
  const run = configurations.find((c) => c.name === 'Run Extension') as Json;
  const gatewayTask = taskList.find((t) => t.label === run.preLaunchTask) as Json;

  it('Run Extension loads this repository with the demo key, after a task that exists, and stops it after', () => {
    assert.equal(run.type, 'extensionHost');
    assert.ok((run.args as string[]).includes('--extensionDevelopmentPath=${workspaceFolder}'));
    assert.deepEqual(run.env, { UNIFIED_INFERENCE_API_KEY: DEMO_API_KEY });
    assert.ok(gatewayTask, `a task labelled "${String(run.preLaunchTask)}"`);
    assert.equal(gatewayTask.isBackground, true);
    const stopTask = taskList.find((t) => t.label === run.postDebugTask) as Json;
    assert.ok(stopTask, 'the post-debug task exists');
    const input = (tasks.inputs as Json[]).find((i) => String(stopTask.command).includes(`\${input:${String(i.id)}}`));
    assert.deepEqual(
      [input?.command, input?.args],
      ['workbench.action.tasks.terminate', gatewayTask.label],
      'it terminates the gateway task',
    );
  });

  it('Extension Tests runs the same command as `npm test -- integration`', () => {
    const tests = configurations.find((c) => c.name === 'Extension Tests') as Json;
    assert.equal(tests.program, '${workspaceFolder}/scripts/test.mjs');
    assert.deepEqual(tests.args, ['integration']);
  });

  it("the pre-launch task starts the gateway, says it is ready in its matcher's words, and points the profile at it", async function () {
    this.timeout(60_000);
    const scripts = (
      JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    const command = /^npm run (\S+)$/.exec(String(gatewayTask.command))?.[1];
    assert.ok(command && scripts[command], `the task runs an npm script: ${String(gatewayTask.command)}`);
    // The script's second half (the build has run already in this test run).
    const entry = /node (out\/test\/harness\/\w+\.js)$/.exec(scripts[command] ?? '')?.[1];
    assert.ok(entry, scripts[command]);
    const ends = new RegExp(String(((gatewayTask.problemMatcher as Json).background as Json).endsPattern));
    assert.ok(ends.test(READY_LINE), 'the matcher ends on the ready line');

    const root = mkdtempSync(join(tmpdir(), 'dev-host-'));
    const child = spawn(process.execPath, [join(REPO_ROOT, entry)], {
      env: { ...process.env, UNIFIED_INFERENCE_DEV_PORT: '0', UNIFIED_INFERENCE_DEV_ROOT: root },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let output = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes(READY_LINE)) resolve();
        });
        child.once('exit', (code) =>
          reject(new Error(`the task ended (${String(code)}) before it was ready: ${output}`)),
        );
      });
      const settings = JSON.parse(readFileSync(join(root, 'user-data', 'User', 'settings.json'), 'utf8')) as Json;
      const baseUrl = String(settings['unifiedInference.baseUrl']);
      assert.match(baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.ok(!JSON.stringify(settings).includes(DEMO_API_KEY), 'no key in the settings file');
      assert.match(readFileSync(join(root, 'workspace', 'src', 'example.ts'), 'utf8'), /export function add/);
      const models = await fetch(`${baseUrl}/api/v1/models`, { headers: { authorization: `Bearer ${DEMO_API_KEY}` } });
      assert.equal(models.status, 200);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(root, { recursive: true, force: true });
    }
  });
});
