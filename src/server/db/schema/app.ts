import { sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Small app-wide facts (schema owner, first start time); lets the first migration be non-empty. */
export const appMeta = sqliteTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
