import { Writable } from 'node:stream';
import { build } from './build.js';

/** Every line a server logs: what an operator's log store would keep. */
function logCapture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines, text: () => lines.join('\n') };
}

/** A server logging at info, with its log captured (`env` adds to or overrides the defaults). */
export async function buildLogged(env: Record<string, string> = {}) {
  const log = logCapture();
  const server = await build({ env: { LOG_LEVEL: 'info', ...env }, logStream: log.stream });
  return { server, log };
}
