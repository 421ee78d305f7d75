import { readFileSync } from 'node:fs';

/** Whether a process with this id runs; one of another user counts (it cannot be signalled, but it runs). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie has ended but its parent has not collected it yet, and it still answers signal 0.
  return statFields(pid)?.[0] !== 'Z';
}

/**
 * When the process with this id started, as `<boot id>/<clock ticks since boot>` from Linux's /proc:
 * a process id is handed out again once its process is gone, a start instant in one boot is not.
 * Undefined where /proc does not say (macOS, Windows, or the process is gone).
 */
export function processStart(pid: number): string | undefined {
  const ticks = statFields(pid)?.[22 - 3];
  if (ticks === undefined || !/^\d+$/.test(ticks)) return undefined;
  try {
    return `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}/${ticks}`;
  } catch {
    return undefined;
  }
}

/** The fields of /proc/<pid>/stat from the third (the state) on, or undefined without /proc. */
function statFields(pid: number): string[] | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The second field is the command name, which may hold spaces and parentheses: fields are counted
  // from after its closing one.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
