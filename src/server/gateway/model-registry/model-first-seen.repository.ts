import type { Db } from '../../db/connection.js';
import { gatewayModelFirstSeen } from '../../db/schema/gateway.js';

/** SQL of the time each model name first appeared in the allowed models (the `created` of `/v1/models`). */
export class ModelFirstSeenRepository {
  constructor(private readonly db: Db) {}

  /**
   * The first-seen time (Unix ms) of every name given, recording `now` for those not yet recorded:
   * one insert per new name, none for names seen before.
   */
  record(models: readonly string[], now: number): ReadonlyMap<string, number> {
    return this.db.transaction((tx) => {
      const seen = new Map(
        tx
          .select()
          .from(gatewayModelFirstSeen)
          .all()
          .map((row) => [row.model, row.firstSeenAt]),
      );
      for (const model of models) {
        if (seen.has(model)) continue;
        tx.insert(gatewayModelFirstSeen).values({ model, firstSeenAt: now }).onConflictDoNothing().run();
        seen.set(model, now);
      }
      return seen;
    });
  }
}
