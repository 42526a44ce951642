import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { localeSplit } from './scripts/localeSplit';
import packageJson from './package.json' with { type: 'json' };

/** The web app. `npm start` builds it into dist/, which the API server serves (history-mode fallback). */
export default defineConfig({
  plugins: [react(), tailwindcss(), localeSplit(import.meta.dirname)],
  resolve: { tsconfigPaths: true },
  // The help screen shows the version it was built from (src/app/help/version.ts).
  define: { __APP_VERSION__: JSON.stringify(packageJson.version) },
  server: {
    port: 5173,
    // The API runs apart in development: `DATA_DIR=/tmp/dev-data PORT=8080 npx tsx server/main.ts`.
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // dist/.vite/manifest.json: bench/foundation.ts follows the chunks /login loads (not served: a dot folder).
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
});
