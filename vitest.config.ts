import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The e2e suites spawn real agent CLIs; two cores cannot run many at once.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
