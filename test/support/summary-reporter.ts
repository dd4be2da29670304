import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends every run with the failed tests, one line each (file › describe › test, first error line),
 * then one plain line, `Tests: N passed, N failed, N skipped`, which CI reads to know how many
 * tests ran. These are the last lines of `.ci/run`'s output, so a failure is named where a reader
 * of a long CI log looks first. Files that failed to load count as failures.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    process.stdout.write(summarise(testModules, unhandledErrors));
  }
}

export function summarise(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<unknown>,
): string {
  let passed = 0;
  let skipped = 0;
  const failures: string[] = [];
  for (const module of testModules) {
    const file = relative(process.cwd(), module.moduleId);
    const tests = [...module.children.allTests()];
    if (module.state() === 'failed' && tests.length === 0) {
      failures.push(`${file} (did not load)${firstLine(module.errors()[0]?.message)}`);
    }
    for (const test of tests) {
      const result = test.result();
      if (result.state === 'passed') passed += 1;
      else if (result.state === 'failed') {
        failures.push(`${file} › ${test.fullName}${firstLine(result.errors?.[0]?.message)}`);
      } else skipped += 1;
    }
  }
  for (const error of unhandledErrors) {
    const { VITEST_TEST_PATH: file, VITEST_TEST_NAME: test } = (error ?? {}) as Record<string, unknown>;
    const where = typeof file === 'string' ? ` in ${relative(process.cwd(), file)}` : '';
    const during = typeof test === 'string' ? ` › ${test}` : '';
    failures.push(`unhandled error${where}${during}${firstLine(messageOf(error))}`);
  }
  const list =
    failures.length === 0 ? '' : `\nFailed tests:\n${failures.map((line) => `  ✗ ${line}\n`).join('')}`;
  return `${list}\nTests: ${passed} passed, ${failures.length} failed, ${skipped} skipped\n`;
}

function firstLine(message: string | undefined): string {
  const line = message?.split('\n')[0]?.trim();
  return line ? ` — ${line.slice(0, 200)}` : '';
}

/**
 * The message of an unhandled error as vitest hands it over: often a plain (even prototype-less)
 * object copied from a worker, which `String()` cannot convert.
 */
function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { name, message, type } = error as { name?: unknown; message?: unknown; type?: unknown };
    if (typeof message === 'string') return typeof name === 'string' ? `${name}: ${message}` : message;
    if (typeof type === 'string') return type;
    try {
      return JSON.stringify(error);
    } catch {
      return 'an error that cannot be shown';
    }
  }
  return typeof error === 'string' ? error : (JSON.stringify(error) ?? 'undefined');
}
