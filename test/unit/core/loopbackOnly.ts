// A dispatcher for tests that connects only to this machine: if a check under test let a link to
// 10.x or 169.254.169.254 through, the connection fails here instead of leaving the machine.
import { Agent, buildConnector } from 'undici';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

export function loopbackOnlyAgent(): Agent {
  const connector = buildConnector({});
  return new Agent({
    connect: (options, callback) => {
      const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
      if (!LOOPBACK.test(host)) {
        callback(new Error(`test safety net: refused to connect to ${host}`), null);
        return;
      }
      connector(options, callback);
    },
  });
}
