import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Which process owns the embedded PostgreSQL of a data directory. PostgreSQL's own lock
 * (postmaster.pid) names the server; this record names the process that started it, so that a
 * start can tell a database left behind by a crashed owner (stop it and carry on) from one a live
 * service is using (refuse). The start time guards against a recycled pid: after a restart of the
 * machine or the container, another process may carry the dead owner's pid.
 */
export interface DataDirOwner {
  pid: number;
  /** The owner's start time as the kernel counts it (Linux), or null where it cannot be read. */
  startedAt: string | null;
}

/** `DATA_DIR/.postgres-owner` for the cluster in `DATA_DIR/postgres`. */
export function ownerFileFor(clusterDir: string): string {
  return path.join(path.dirname(path.resolve(clusterDir)), `.${path.basename(clusterDir)}-owner`);
}

export function recordOwner(clusterDir: string): void {
  const owner: DataDirOwner = { pid: process.pid, startedAt: processStartTime(process.pid) };
  writeFileSync(ownerFileFor(clusterDir), `${JSON.stringify(owner)}\n`, { mode: 0o600 });
}

export function readOwner(clusterDir: string): DataDirOwner | null {
  const file = ownerFileFor(clusterDir);
  if (!existsSync(file)) return null;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<DataDirOwner>;
    if (!Number.isInteger(parsed.pid) || (parsed.pid as number) <= 0) return null;
    return { pid: parsed.pid as number, startedAt: parsed.startedAt ?? null };
  } catch {
    return null; // a torn write: nobody can be shown to own it
  }
}

/** Forgets the record, but only our own: a newer owner's record stays. */
export function releaseOwner(clusterDir: string): void {
  const owner = readOwner(clusterDir);
  if (owner && owner.pid === process.pid) rmSync(ownerFileFor(clusterDir), { force: true });
}

export function ownerIsAlive(owner: DataDirOwner): boolean {
  if (!isRunning(owner.pid)) return false;
  const startedAt = processStartTime(owner.pid);
  return owner.startedAt === null || startedAt === null || startedAt === owner.startedAt;
}

/**
 * Whether `pid` names a running process. A zombie (dead, not yet reaped by a parent that may
 * never reap it) counts as gone; a process of another user (EPERM) counts as running.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  return procStat(pid)?.state !== 'Z';
}

function processStartTime(pid: number): string | null {
  return procStat(pid)?.startTime ?? null;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function procStat(pid: number): { state: string; startTime: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); field 22 (starttime) is fields[19].
    return { state: fields[0], startTime: fields[19] };
  } catch {
    return null;
  }
}
