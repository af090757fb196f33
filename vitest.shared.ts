// One vitest configuration for every project: in-repo packages are consumed from their sources
// through the "@diffworld/source" export condition, so tests never need a build first.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export const sourceConditions = ['@diffworld/source', 'node', 'import', 'module', 'default'];

/** Fails a test that writes unexpected console.error / console.warn output (see the file). */
const consoleGuard = fileURLToPath(new URL('./vitest.console-guard.ts', import.meta.url));
/** Prints, after the summary, one line per reason for the tests that skipped (see the file). */
const skipReasons = fileURLToPath(new URL('./vitest.skip-reasons.ts', import.meta.url));

/** `consoleGuard` (on unless a project turns it off): tests fail on unexpected console.error/warn. */
export function projectConfig(extra: { testTimeout?: number; consoleGuard?: boolean } = {}) {
  return defineConfig({
    resolve: { conditions: sourceConditions },
    ssr: { resolve: { conditions: sourceConditions, externalConditions: ['@diffworld/source'] } },
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      passWithNoTests: true,
      testTimeout: extra.testTimeout ?? 30_000,
      pool: 'forks',
      setupFiles: (extra.consoleGuard ?? true) ? [consoleGuard] : [],
      reporters: ['default', skipReasons],
    },
  });
}
