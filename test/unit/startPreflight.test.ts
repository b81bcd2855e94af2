// npm start's platform decision (test/harness/startPreflight.ts): a pure function of the machine's
// facts, so every platform is checked here, on this Linux machine.
import * as assert from 'node:assert/strict';
import { NEEDED_FREE_BYTES, startPreflight, type StartFacts } from '../harness/startPreflight';

const allCommands = {
  bash: true,
  flock: true,
  tar: true,
  gzip: true,
  npm: true,
  make: true,
  'g++': true,
  python3: true,
  rg: true,
  'apt-get': true,
  sudo: true,
};

/** A Debian x64 machine with everything, nothing installed yet, plenty of room. */
function facts(overrides: Partial<StartFacts> = {}): StartFacts {
  return {
    platform: 'linux',
    arch: 'x64',
    libc: 'glibc',
    wsl: false,
    hostInstalled: false,
    commands: allCommands,
    gssapiHeader: true,
    canInstallPackages: true,
    freeBytes: 50e9,
    cacheDir: '/home/me/.cache/unified-inference-test-host',
    ...overrides,
  };
}

function message(overrides: Partial<StartFacts>): string {
  const result = startPreflight(facts(overrides));
  assert.equal(result.ok, false, 'expected npm start to refuse');
  return result.ok ? '' : result.message;
}

describe('npm start preflight', () => {
  it('lets a Debian x64 machine through, and WSL like any Linux', () => {
    assert.deepEqual(startPreflight(facts()), { ok: true });
    assert.deepEqual(startPreflight(facts({ wsl: true })), { ok: true });
  });

  it('sends Windows to WSL or F5, macOS and other systems to F5', () => {
    const windows = message({ platform: 'win32' });
    assert.match(windows, /Windows/);
    assert.match(windows, /WSL/);
    assert.match(windows, /F5/);
    const mac = message({ platform: 'darwin', arch: 'arm64' });
    assert.match(mac, /macOS/);
    assert.match(mac, /F5/);
    assert.match(message({ platform: 'freebsd' }), /freebsd\/x64.*F5/);
  });

  it('refuses arm64, 32-bit and musl Linux with the reason', () => {
    assert.match(message({ arch: 'arm64' }), /x64 Linux only, and this machine is arm64/);
    assert.match(message({ arch: 'ia32' }), /this machine is ia32/);
    assert.match(message({ libc: 'musl' }), /musl.*glibc/);
  });

  it('names the missing script tools and their packages', () => {
    const text = message({ commands: { ...allCommands, flock: false, tar: false } });
    assert.match(text, /needs flock, tar on PATH/);
    assert.match(text, /apt-get install util-linux tar/);
  });

  it('names the build tools node-gyp needs, which the installer does not install', () => {
    const text = message({ commands: { ...allCommands, 'g++': false, python3: false } });
    assert.match(text, /g\+\+, python3/);
    assert.match(text, /sudo apt-get install g\+\+ python3/);
  });

  it('leaves ripgrep and the Kerberos headers to the installer when apt-get can run, and asks for them when it cannot', () => {
    assert.deepEqual(startPreflight(facts({ commands: { ...allCommands, rg: false }, gssapiHeader: false })), {
      ok: true,
    });
    const noApt = message({ commands: { ...allCommands, rg: false, 'apt-get': false }, gssapiHeader: false });
    assert.match(noApt, /ripgrep, libkrb5-dev/);
    assert.match(noApt, /cannot add them without apt-get/);
    assert.match(
      message({ commands: { ...allCommands, rg: false, sudo: false }, canInstallPackages: false }),
      /ripgrep/,
    );
  });

  it('asks for about 1 GB in the cache folder, and says how to move it', () => {
    const text = message({ freeBytes: NEEDED_FREE_BYTES - 1 });
    assert.match(text, /about 1 GB in \/home\/me\/\.cache\/unified-inference-test-host/);
    assert.match(text, /UNIFIED_INFERENCE_TEST_CACHE/);
    assert.deepEqual(
      startPreflight(facts({ freeBytes: undefined })),
      { ok: true },
      'an unreadable disk is not a reason to refuse',
    );
  });

  it('needs nothing more once the host is installed, but still refuses a platform it cannot run on', () => {
    assert.deepEqual(startPreflight(facts({ hostInstalled: true, commands: {}, gssapiHeader: false, freeBytes: 0 })), {
      ok: true,
    });
    assert.match(message({ hostInstalled: true, platform: 'win32' }), /WSL/);
  });
});
