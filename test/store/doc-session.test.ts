import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './app-helpers.js';
import { socketStore } from './support/socket-store.js';

// The example session of docs/store.md says its outputs are verbatim: every command is pasted into bash
// as a reader would, against a fresh store on a real socket, and must print what the doc shows.

const run = promisify(execFile);

interface Step {
  readonly command: string;
  readonly expected: string;
}

/** The `$ command` lines of the doc's example session, each with the output lines that follow it. */
function exampleSession(): Step[] {
  const doc = readFileSync(new URL('../../docs/store.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Example session'));
  // The console block, wherever it stands in the section (a setup block may come before it).
  const start = section.indexOf('```console\n') + '```console\n'.length;
  const block = section.slice(start, section.indexOf('\n```\n', start));
  const steps: { command: string; output: string[] }[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: [] });
    else if (line !== '') steps.at(-1)?.output.push(line);
  }
  return steps.map(({ command, output }) => ({ command, expected: output.join('\n') }));
}

/** Timestamps differ from run to run; the doc says so. */
const withoutTimes = (text: string) => text.replace(/"created_at":"[^"]+"/g, '"created_at":"…"');

describe('docs/store.md example session, pasted into a shell', () => {
  const socket = socketStore();

  it('prints what the doc shows for every command, in order', async () => {
    const steps = exampleSession();
    expect(steps.length).toBeGreaterThan(20);
    for (const { command, expected } of steps) {
      const { stdout } = await run('bash', ['-c', command], {
        env: { PATH: process.env.PATH, STORE: socket.base, STORE_TOKEN: ADMIN_TOKEN },
      }).catch((error: { stdout?: string; code?: number }) => ({
        stdout: `${error.stdout ?? ''}(exit ${error.code})`,
      }));
      expect({ command, output: withoutTimes(stdout.trimEnd()) }).toEqual({ command, output: withoutTimes(expected) });
    }
  });
});
