import { csvLine } from '../../../shared/csv.js';
import { usageRowSchema, type UsageRow } from '../../../shared/gateway-api.js';

/** The export's columns: every field of a usage row, in the API's order, so a new field is a new column. */
export const USAGE_CSV_COLUMNS = Object.keys(usageRowSchema.shape) as ReadonlyArray<keyof UsageRow>;

/** The header record: the row fields' names. */
export const usageCsvHeader = (): string => csvLine(USAGE_CSV_COLUMNS);

/** A usage row as a CSV record, in {@link USAGE_CSV_COLUMNS}' order. */
export const usageCsvLine = (row: UsageRow): string => csvLine(USAGE_CSV_COLUMNS.map((column) => row[column]));
