import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used, in microseconds, from /proc (Linux). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // After the command name: field 14 (utime) and 15 (stime) of stat are at 11 and 12 here.
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1e6;
}

/** A memory figure of a process's /proc status (VmHWM, VmRSS…), in MiB. */
function statusMiB(pid: number, field: string): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}

/** Peak resident set size of a process, in MiB. */
export const peakRssMiB = (pid: number): number => statusMiB(pid, 'VmHWM');

/** Resident set size of a process now, in MiB. */
export const rssMiB = (pid: number): number => statusMiB(pid, 'VmRSS');
