import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-count-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the counting script on these reports: its last line and exit status. */
async function count(vitest: unknown, playwright: unknown): Promise<{ line: string; code: number }> {
  writeFileSync(join(dir, 'vitest.json'), JSON.stringify(vitest));
  writeFileSync(join(dir, 'playwright.json'), JSON.stringify(playwright));
  const script = join(process.cwd(), 'scripts', 'count-tests.mjs');
  const run = promisify(execFile)(process.execPath, [script, join(dir, 'vitest.json'), join(dir, 'playwright.json')]);
  const { stdout, code } = await run.then(
    ({ stdout }) => ({ stdout, code: 0 }),
    (error: { stdout: string; code: number }) => error,
  );
  return { line: stdout.trim().split('\n').at(-1)!, code };
}

/** CI reads the last line of the test command, `tests: N passed, M failed`: it must be the real count. */
describe('the counts line', () => {
  const playwright = { stats: { expected: 10, flaky: 1, unexpected: 0, skipped: 0 } };

  it('counts each failed test once, inside describe blocks too, and a file that failed to load once', async () => {
    const vitest = {
      numPassedTests: 5,
      numFailedTests: 2,
      // Vitest counts the describe blocks of failed tests among failed suites as well.
      numFailedTestSuites: 4,
      testResults: [
        { status: 'failed', assertionResults: [{ status: 'failed' }, { status: 'failed' }, { status: 'passed' }] },
        { status: 'failed', assertionResults: [] },
        { status: 'passed', assertionResults: [{ status: 'passed' }] },
      ],
    };
    expect(await count(vitest, playwright)).toEqual({ line: 'tests: 16 passed, 3 failed', code: 1 });
  });

  it('says 0 failed and exits 0 when everything passed', async () => {
    const vitest = { numPassedTests: 5, numFailedTests: 0, numFailedTestSuites: 0, testResults: [] };
    expect(await count(vitest, playwright)).toEqual({ line: 'tests: 16 passed, 0 failed', code: 0 });
  });
});
