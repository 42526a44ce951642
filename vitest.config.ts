import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { localeSplit } from './scripts/localeSplit';

/**
 * Projects: pure rules (unit, and unit-mocks below), machine-generated paths (model), the real server (api). Playwright
 * runs e2e.
 * Files share their worker's process (`isolate: false`): each file brings its own server, database and DOM, and a
 * fresh process per file imported the whole server again each time (model 119 → 77 s, unit 78 → 63 s on a slow CI
 * machine). A file that replaces modules with vi.mock cannot share: a module another file loaded first stays the real
 * one, and which files share a worker changes from run to run. Those files are found by their text, so a new one
 * cannot be forgotten, and run isolated in a project of their own.
 */
const UNIT = 'tests/unit';
const MOCKING = readdirSync(UNIT, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.test\.tsx?$/.test(f) && /\bvi\.(do)?[mM]ock\(/.test(readFileSync(path.join(UNIT, f), 'utf8')))
  .map((f) => `${UNIT}/${f}`);
export default defineConfig({
  plugins: [react(), localeSplit(import.meta.dirname)],
  resolve: { tsconfigPaths: true },
  test: {
    isolate: false,
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], exclude: MOCKING, environment: 'node' } },
      { extends: true, test: { name: 'unit-mocks', include: MOCKING, environment: 'node', isolate: true } },
      { extends: true, test: { name: 'model', include: ['tests/model/**/*.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 120_000 } },
      { extends: true, test: { name: 'api', include: ['tests/api/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 120_000 } },
    ],
  },
});
