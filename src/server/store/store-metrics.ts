import { Counter, Histogram, type Registry } from 'prom-client';

/** Outcome label of a store operation. */
export type OperationResult = 'success' | 'error' | 'noop';

/** The store's domain metrics (the HTTP ones are registered by the app). */
export interface StoreMetrics {
  /** Records one operation: its duration, outcome, and how many documents it changed. */
  observe(operation: string, result: OperationResult, seconds: number, changedDocuments: number): void;
}

/** Registers `svc_operation_duration_seconds`, `svc_operations_total` and `svc_changed_documents_total`. */
export function createStoreMetrics(registry: Registry): StoreMetrics {
  const duration = new Histogram({
    name: 'svc_operation_duration_seconds',
    help: 'Store operation latency in seconds, by operation and result',
    labelNames: ['operation', 'result'] as const,
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
    registers: [registry],
  });
  const total = new Counter({
    name: 'svc_operations_total',
    help: 'Store operations by operation and result (success, error, noop)',
    labelNames: ['operation', 'result'] as const,
    registers: [registry],
  });
  const changed = new Counter({
    name: 'svc_changed_documents_total',
    help: 'Documents created, updated or deleted, by operation',
    labelNames: ['operation'] as const,
    registers: [registry],
  });
  return {
    observe(operation, result, seconds, changedDocuments) {
      duration.observe({ operation, result }, seconds);
      total.inc({ operation, result });
      if (changedDocuments > 0) changed.inc({ operation }, changedDocuments);
    },
  };
}
