import { z } from 'zod';

const holdRecordSchema = z.object({
  /** Tells this process's own holds from a stale one left by an earlier process that had the same id. */
  id: z.string(),
  pid: z.number().int().positive(),
  host: z.string(),
  process_start: z.string().nullable(),
  started_at: z.string(),
  gateway: z.string().nullable(),
  store: z.string().nullable(),
  /**
   * The held folder's device and inode (`dev:ino`): a copy of a folder made while its server ran
   * carries the hold file along, and names a folder other than the one it is in. Older versions
   * wrote none.
   */
  folder: z.string().optional(),
});

/** What the hold file says about the server holding the data folder: the process, and where it listens once it does. */
export type HoldRecord = Readonly<z.infer<typeof holdRecordSchema>>;

/** The record in a hold file's text, or undefined when the text is not one (empty while being written, or damaged). */
export function parseHoldRecord(text: string): HoldRecord | undefined {
  try {
    const parsed = holdRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The hold file's text: JSON, so a person can read who holds the folder. */
export function formatHoldRecord(record: HoldRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}
