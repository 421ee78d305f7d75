// The whole Drizzle schema: one module per service, re-exported so drizzle-kit sees every table.
export * from './app.js';
export * from './store.js';
export * from './gateway.js';
export * from './rag.js';
