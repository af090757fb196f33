// One vitest configuration for every project: in-repo packages are consumed from their sources
// through the "@diffworld/source" export condition, so tests never need a build first.
import { defineConfig } from 'vitest/config';

export const sourceConditions = ['@diffworld/source', 'node', 'import', 'module', 'default'];

export function projectConfig(extra: { testTimeout?: number } = {}) {
  return defineConfig({
    resolve: { conditions: sourceConditions },
    ssr: { resolve: { conditions: sourceConditions, externalConditions: ['@diffworld/source'] } },
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      passWithNoTests: true,
      testTimeout: extra.testTimeout ?? 30_000,
      pool: 'forks',
      reporters: ['default'],
    },
  });
}
