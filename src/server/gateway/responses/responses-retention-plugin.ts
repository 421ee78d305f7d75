import fp from 'fastify-plugin';
import type { DatabaseHandle } from '../../db/connection.js';
import { ResponsesRepository } from './responses.repository.js';
import { ResponsesRetention } from './responses-retention.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The purge of kept responses older than `responses.retention_days` (the `responses-retention` plugin). */
    responsesRetention: ResponsesRetention;
  }
}

/** What the purge runs over. */
export interface ResponsesRetentionPluginOptions {
  readonly database: DatabaseHandle;
}

/** Purges expired kept responses once the gateway is ready and every hour after; stops with the app. */
export const responsesRetentionPlugin = fp<ResponsesRetentionPluginOptions>(
  async (app, options) => {
    const retentionDays = app.gateway.config.responses.retention_days;
    const retention = new ResponsesRetention(new ResponsesRepository(options.database.db), {
      retentionDays,
      onPurged: (count) =>
        app.log.info(
          { purged: count, retention_days: retentionDays },
          `deleted ${count} kept response(s) older than ${retentionDays} days (responses.retention_days)`,
        ),
      onError: (error) =>
        app.log.warn(
          { err: error },
          'could not delete expired kept responses; the next purge, within an hour, tries again',
        ),
    });
    app.decorate('responsesRetention', retention);
    app.addHook('onReady', async () => retention.start());
    app.addHook('onClose', async () => retention.close());
  },
  { name: 'responses-retention', fastify: '5.x', dependencies: ['gateway-services'] },
);
