import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { localeSplit } from './scripts/localeSplit';

/**
 * Three projects: pure rules (unit), machine-generated paths (model), the real server (api). Playwright runs e2e.
 * No project isolates its files in a process of their own: each file brings its own server, database and DOM, and a
 * fresh process per file imported the whole server again each time (model 119 → 77 s, unit 78 → 63 s on a slow CI
 * machine).
 */
export default defineConfig({
  plugins: [react(), localeSplit(import.meta.dirname)],
  resolve: { tsconfigPaths: true },
  test: {
    isolate: false,
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' } },
      { extends: true, test: { name: 'model', include: ['tests/model/**/*.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 120_000 } },
      { extends: true, test: { name: 'api', include: ['tests/api/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 120_000 } },
    ],
  },
});
