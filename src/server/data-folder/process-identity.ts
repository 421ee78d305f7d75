import { readFileSync } from 'node:fs';

/** Whether a process with this id exists; one of another user counts (it cannot be signalled, but it runs). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When the process with this id started, as `<boot id>/<clock ticks since boot>` from Linux's /proc:
 * a process id is handed out again once its process is gone, a start instant in one boot is not.
 * Undefined where /proc does not say (macOS, Windows, or the process is gone).
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The second field is the command name, which may hold spaces and parentheses: fields are
    // counted from after its closing one, where the third field (the state) begins.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = fields[22 - 3];
    if (ticks === undefined || !/^\d+$/.test(ticks)) return undefined;
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return `${boot}/${ticks}`;
  } catch {
    return undefined;
  }
}
