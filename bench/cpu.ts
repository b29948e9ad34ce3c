/**
 * CPU accounting for the HTTP benchmarks, read from Linux's /proc: the CPU time of this process's
 * main thread (where the servers run; the load generator has a thread of its own), of every
 * PostgreSQL process, and how busy the whole machine was. Event-loop utilisation alone cannot
 * tell a saturated loop from one waiting for a core, which a 2-core machine running PostgreSQL
 * beside the service makes common.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * utime + stime of a /proc/…/stat line, in milliseconds (fields 14 and 15; the name may hold
 * spaces), plus, with `children`, cutime + cstime (16 and 17): the CPU of children that exited and
 * were waited for. PostgreSQL's postmaster waits for every backend, so a backend that ends during a
 * run (a pool closing an idle connection) keeps its CPU in the total.
 */
function cpuMsOf(stat: string, children = false): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks =
    Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

export interface CpuSample {
  /** CPU time of this process's main thread, ms. */
  mainThreadMs: number;
  /** CPU time of the PostgreSQL processes, alive or ended (see cpuMsOf), ms. */
  postgresMs: number;
  /** Machine-wide busy and total jiffies (all cores). */
  machineBusy: number;
  machineTotal: number;
}

/** The parent pid of a /proc/…/stat line (field 4). */
function parentOf(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/**
 * A sample now. With `postmaster`, PostgreSQL's CPU is that server's only (the postmaster and its
 * children): other PostgreSQL servers on a shared machine (another bench, a test run) are left out.
 */
export function sampleCpu(postmaster?: number): CpuSample {
  const mainThreadMs = cpuMsOf(readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8'));
  let postgresMs = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes(' (postgres) ')) continue;
      if (postmaster !== undefined && Number(entry) !== postmaster && parentOf(stat) !== postmaster) continue;
      postgresMs += cpuMsOf(stat, true);
    } catch {
      // The process ended while we looked.
    }
  }
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const machineTotal = cpu.reduce((a, b) => a + b, 0);
  const idle = cpu[3] + (cpu[4] ?? 0);
  return { mainThreadMs, postgresMs, machineBusy: machineTotal - idle, machineTotal };
}

export interface CpuUse {
  mainThreadMs: number;
  postgresMs: number;
  /** Share of all cores' time the machine was busy (0..1). */
  machineBusy: number;
}

export function cpuSince(before: CpuSample, postmaster?: number): CpuUse {
  const after = sampleCpu(postmaster);
  const total = after.machineTotal - before.machineTotal;
  return {
    mainThreadMs: after.mainThreadMs - before.mainThreadMs,
    postgresMs: after.postgresMs - before.postgresMs,
    machineBusy: total > 0 ? (after.machineBusy - before.machineBusy) / total : 0,
  };
}

/** The pid of the postmaster of a backend (the parent of `backendPid`, which `pg_backend_pid()` names). */
export function postmasterOf(backendPid: number): number {
  return parentOf(readFileSync(`/proc/${backendPid}/stat`, 'utf8'));
}
