// Prints one line with the real counts over every suite, `tests: N passed, M failed`, from the
// runners' JSON reports (CI cannot read vitest's or Playwright's own summaries). Exits 1 when any
// test failed or a report is missing.
import { existsSync, readFileSync } from 'node:fs';

const [vitestFile, playwrightFile] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];

function readJson(file) {
  if (!file || !existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const vitest = readJson(vitestFile);
if (vitest) {
  passed += vitest.numPassedTests ?? 0;
  failed += (vitest.numFailedTests ?? 0) + countFilesFailedWithoutTests(vitest);
  skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
} else missing.push('vitest');

// A file that failed to load (or whose hooks failed) has no failed tests of its own; count it once so
// it is not silent. Vitest's numFailedTestSuites also counts the describe blocks of failed tests.
function countFilesFailedWithoutTests(report) {
  return (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'),
  ).length;
}

const playwright = readJson(playwrightFile);
if (playwright?.stats) {
  passed += (playwright.stats.expected ?? 0) + (playwright.stats.flaky ?? 0);
  failed += playwright.stats.unexpected ?? 0;
  skipped += playwright.stats.skipped ?? 0;
} else missing.push('playwright');

if (missing.length > 0) {
  console.log(`no report from: ${missing.join(', ')} (counted as 1 failure each)`);
  failed += missing.length;
}
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
