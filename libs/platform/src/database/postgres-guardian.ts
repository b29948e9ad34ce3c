import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';

/**
 * Keeps the embedded PostgreSQL from outliving the process that started it. The server runs in a
 * process group of its own (so that a Ctrl-C reaches only the service, which stops it last), and so
 * nothing stops it when the service dies without running its exit handlers: `kill -9`, the
 * out-of-memory killer, a crash in native code. Node cannot ask the kernel for a parent-death
 * signal without a native addon, so a tiny shell, also in a group of its own, holds the reading end
 * of a pipe from the service. The kernel closes the writing end however the service dies; the
 * shell then reads end-of-file and asks the server for a fast shutdown (SIGINT: disconnect
 * clients, checkpoint, exit). A service that stops the server itself first says `release`.
 *
 * The server is signalled only while its postmaster.pid still names it, so a recycled pid is
 * never hit; if the file is not there yet (the service died while the server was starting) the
 * pid was handed out milliseconds ago and is still the server's.
 */
const SCRIPT = `
while IFS= read -r line; do
  [ "$line" = release ] && exit 0
done
holder=$(head -n 1 "$2/postmaster.pid" 2>/dev/null)
if [ -z "$holder" ] || [ "$holder" = "$1" ]; then
  kill -INT "$1" 2>/dev/null
fi
exit 0
`;

export interface Guardian {
  /** The server is being stopped (or has exited) under the service's control: stand down. */
  release(): void;
}

/** Null where there is no POSIX shell (Windows): there the service's exit handler is all we have. */
export function guardPostgres(postmasterPid: number, clusterDir: string): Guardian | null {
  if (process.platform === 'win32') return null;
  const guard = spawn('/bin/sh', ['-c', SCRIPT, 'postgres-guardian', String(postmasterPid), clusterDir], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  guard.on('error', () => undefined); // no shell: the start-up's own checks still apply
  const pipe = guard.stdin as (NodeJS.WritableStream & Partial<Pick<Socket, 'unref'>>) | null;
  pipe?.on('error', () => undefined);
  // Neither the guard nor its pipe keeps a command-line tool (or a test run) from exiting.
  guard.unref();
  pipe?.unref?.();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      pipe?.end('release\n');
    },
  };
}
