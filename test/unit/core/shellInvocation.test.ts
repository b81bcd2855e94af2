// How run_command hands a line to the shell and ends what it started, for Windows and POSIX by
// parameter (Windows cannot run here: its argv and environment are checked as data), then for
// real on this machine: the line runs verbatim, and the group kill ends a grandchild too.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { commandEnvironment, shellInvocation, treeKill } from '../../../src/core/commands/shellInvocation';

const KEY = 'UNIFIED_INFERENCE_API_KEY';

describe('core/commands: shell invocation', () => {
  it('Windows: cmd.exe /d /s /c "<line>" verbatim, so inner quotes, & and % reach cmd as the user saw them', () => {
    const line = 'echo "a b" & dir "C:\\x y" && set /a 1+1 %PATH%';
    const shell = shellInvocation(line, 'win32', { ComSpec: 'C:\\Windows\\system32\\cmd.exe' }, [KEY]);
    assert.equal(shell.file, 'C:\\Windows\\system32\\cmd.exe');
    assert.deepEqual(shell.args, ['/d', '/s', '/c', `"${line}"`]);
    assert.equal(shell.windowsVerbatimArguments, true);
    assert.equal(shell.detached, false);
  });

  it('Windows: finds ComSpec whatever its case, and never a bare or relative cmd.exe (searched in the current folder first)', () => {
    assert.equal(shellInvocation('x', 'win32', { COMSPEC: 'D:\\Win\\cmd.exe' }, []).file, 'D:\\Win\\cmd.exe');
    assert.equal(
      shellInvocation('x', 'win32', { ComSpec: 'cmd.exe', SystemRoot: 'E:\\Windows\\' }, []).file,
      'E:\\Windows\\System32\\cmd.exe',
    );
    assert.equal(shellInvocation('x', 'win32', { windir: 'F:\\WINNT' }, []).file, 'F:\\WINNT\\System32\\cmd.exe');
    assert.equal(shellInvocation('x', 'win32', {}, []).file, 'C:\\Windows\\System32\\cmd.exe');
  });

  it('POSIX: /bin/sh -c with the line as one argument, in its own process group', () => {
    const shell = shellInvocation('echo "$HOME" | wc -c; rm -rf "a b"', 'posix', {}, []);
    assert.deepEqual([shell.file, ...shell.args], ['/bin/sh', '-c', 'echo "$HOME" | wc -c; rm -rf "a b"']);
    assert.equal(shell.windowsVerbatimArguments, false);
    assert.equal(shell.detached, true);
  });

  it("Windows: drops the API key and the editor's internals whatever their case, and keeps one Path", () => {
    const env = commandEnvironment(
      {
        Path: 'C:\\bin',
        PATH: 'C:\\other',
        unified_inference_api_key: 'sk-1',
        ELECTRON_RUN_AS_NODE: '1',
        Electron_No_Attach_Console: '1',
        VSCODE_IPC_HOOK: '\\\\.\\pipe\\x',
        vscode_pid: '42',
        VSCODE_PORTABLE: 'D:\\code',
        USERPROFILE: 'C:\\Users\\me',
        gone: undefined,
      },
      [KEY],
      'win32',
    );
    assert.deepEqual(env, { Path: 'C:\\bin', VSCODE_PORTABLE: 'D:\\code', USERPROFILE: 'C:\\Users\\me' });
  });

  it("POSIX: names are exact (unified_inference_api_key is another variable there); the editor's internals go", () => {
    const env = commandEnvironment(
      {
        PATH: '/bin',
        [KEY]: 'sk-1',
        unified_inference_api_key: 'other',
        ELECTRON_RUN_AS_NODE: '1',
        VSCODE_IPC_HOOK_CLI: '/tmp/s',
        VSCODE_NLS_CONFIG: '{}',
        VSCODE_SHELL_LOGIN: '1',
        SNAP: '/snap/code',
        SNAP_NAME: 'code',
        SNAPSHOT: 'keep',
        GDK_PIXBUF_MODULE_FILE: 'x',
        HOME: '/home/me',
      },
      [KEY],
      'posix',
    );
    assert.deepEqual(env, {
      PATH: '/bin',
      unified_inference_api_key: 'other',
      VSCODE_SHELL_LOGIN: '1',
      SNAPSHOT: 'keep',
      HOME: '/home/me',
    });
  });

  it('kills the whole tree: taskkill /T /F on Windows (by full path), the process group elsewhere', () => {
    assert.deepEqual(treeKill(1234, 'win32', { SYSTEMROOT: 'C:\\Windows' }), {
      kind: 'spawn',
      file: 'C:\\Windows\\System32\\taskkill.exe',
      args: ['/pid', '1234', '/T', '/F'],
    });
    assert.deepEqual(treeKill(1234, 'posix', {}), { kind: 'group', pid: -1234 });
  });

  if (process.platform !== 'win32') {
    it('runs on this machine: the line verbatim, without the key, and a group kill ends a grandchild too', async () => {
      const shell = shellInvocation(
        `printf '%s|' "a  b" "$${KEY}" "$ELECTRON_RUN_AS_NODE"; sleep 300 & echo $!; wait`,
        'posix',
        { ...process.env, [KEY]: 'sk-secret', ELECTRON_RUN_AS_NODE: '1' },
        [KEY],
      );
      const child = spawn(shell.file, [...shell.args], {
        env: shell.env,
        detached: shell.detached,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      const grandchild = await new Promise<number>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /\|(\d+)\n/.exec(out);
          if (match) resolve(Number(match[1]));
        });
      });
      assert.ok(
        out.startsWith('a  b|||'),
        `the quoted argument kept its spaces, the key and ELECTRON_RUN_AS_NODE were empty: ${out}`,
      );
      const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
      const plan = treeKill(child.pid as number, 'posix', {});
      assert.equal(plan.kind, 'group');
      if (plan.kind === 'group') process.kill(plan.pid, 'SIGKILL');
      await closed;
      // The grandchild got the same signal: it is gone, or a zombie waiting for a reaper (a container's init may never reap it).
      const alive = (): boolean => {
        try {
          process.kill(grandchild, 0);
        } catch {
          return false;
        }
        const stat = existsSync(`/proc/${grandchild}/stat`) ? readFileSync(`/proc/${grandchild}/stat`, 'utf8') : '';
        return !/^\d+ \(.*\) Z/.test(stat);
      };
      for (let i = 0; i < 2000 && alive(); i++) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(alive(), false, 'the sleep the command started is gone');
    });
  }
});
