import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { checkExchangesWith, documentOf } from './checked-fetch';

export const ROOT = path.resolve(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'apps', 'api', 'src', 'main.js');

/** Compiles like `npm start` does (a no-op when dist/ is fresh). */
export function buildOnce(): void {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-if-needed.js')], {
    cwd: ROOT,
    stdio: 'ignore',
  });
}

export interface ServiceProcess {
  child: ChildProcess;
  output: () => string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * Runs the built service exactly as `npm start` does, with the given environment. `detached`
 * gives it a process group of its own, as a shell gives a command, so a test can kill the group.
 */
export function startProcess(
  env: Record<string, string>,
  options: { detached?: boolean } = {},
): ServiceProcess {
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out + err, stdout: () => out, stderr: () => err, exited };
}

/**
 * Waits until the service answers 200 on /health and resolves with when it did (`performance.now()`);
 * then reads its OpenAPI document, so that every checkedFetch with it is checked against it.
 */
export async function waitForHealth(url: string, proc: ServiceProcess, timeoutMs = 60_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`service exited early:\n${proc.output()}`);
    let healthy = false;
    try {
      // Not kept alive: see documentOf.
      const res = await fetch(`${url}/api/v1/health`, { headers: { connection: 'close' } });
      healthy = res.status === 200;
    } catch {
      // not listening yet
    }
    if (healthy) {
      const healthyAt = performance.now();
      const forget = checkExchangesWith(url, await documentOf(url));
      void proc.exited.then(forget);
      return healthyAt;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`service not healthy after ${timeoutMs} ms:\n${proc.output()}`);
}

/** After a test: stops the service it started, if it still runs, and removes its data directory. */
export async function stopAndRemove(service: ServiceProcess | null, dataRoot: string): Promise<void> {
  if (service && service.child.exitCode === null) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
  rmSync(dataRoot, { recursive: true, force: true });
}
