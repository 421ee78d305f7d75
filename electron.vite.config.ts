import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

/**
 * electron-vite forces `base: './'` on production renderer builds (right for file:// pages). This
 * renderer is served over HTTP at /ui/ with client-side routes (/ui/store/history), where
 * page-relative asset URLs would break on a reload; the base must be absolute. (electron-vite then
 * warns that base was set; the warning does not apply to an HTTP-served renderer.)
 */
const UI_BASE = '/ui/';
function servedAtUiPath(): Plugin {
  return { name: 'gatehouse:ui-base', enforce: 'post', config: () => ({ base: UI_BASE }) };
}

// main: the Electron main process with src/server bundled in (the servers run in-process); runtime
// dependencies stay in node_modules, better-sqlite3 always (a native module cannot be bundled).
// preload: one CommonJS file, as a sandboxed preload must be.
// renderer: the React UI, served by the gateway at /ui/ in the desktop window and in browsers alike.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        input: { index: resolve('src/main/index.ts') },
        external: ['better-sqlite3'],
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    base: UI_BASE,
    plugins: [react(), servedAtUiPath()],
    build: {
      outDir: resolve('out/renderer'),
      emptyOutDir: true,
      minify: true,
      // One bundle served from localhost: react, zod and the app load together anyway.
      chunkSizeWarningLimit: 800,
      rolldownOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
