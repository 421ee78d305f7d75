import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

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
    base: '/ui/',
    plugins: [react()],
    build: {
      outDir: resolve('out/renderer'),
      emptyOutDir: true,
      minify: true,
      rolldownOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
