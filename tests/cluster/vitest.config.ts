import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster` (tests/cluster/*.test.ts): nginx, three API processes, PostgreSQL and an S3 server, started
 * and stopped by each file (tests/cluster/harness.ts). Not part of the root config's projects: it needs PostgreSQL
 * (DATABASE_URL, or postgres@127.0.0.1:5432) and Debian's nginx, and a file takes minutes. scripts/test.sh runs the
 * short file when DATABASE_URL is set.
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ['tests/cluster/**/*.test.ts'],
    environment: 'node',
    // One file at a time: each starts five processes of its own on a two-core machine.
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
