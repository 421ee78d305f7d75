import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** The file in the data folder that keeps the ports the desktop app last left a default port for. */
export const REMEMBERED_PORTS_FILE = 'desktop-ports.json';

const portSchema = z.number().int().min(1).max(65535);
const rememberedSchema = z.object({ gateway_port: portSchema.optional(), store_port: portSchema.optional() });

/** The port each service last listened on in place of its default port in use. */
export type RememberedPorts = z.infer<typeof rememberedSchema>;

/**
 * The ports last used in place of default ones, or none: a missing, unreadable or malformed file
 * only costs a new free port (the next save replaces it), never the start.
 */
export function readRememberedPorts(dataDir: string): RememberedPorts {
  try {
    const parsed = rememberedSchema.safeParse(JSON.parse(readFileSync(join(dataDir, REMEMBERED_PORTS_FILE), 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/**
 * Keeps the ports for the next launch (owner-only, as the data folder's other files; written whole
 * and renamed, so a crash leaves the old file or the new one). A failure is returned to be said: the
 * app runs on, and the next launch picks a free port again.
 */
export function rememberPorts(dataDir: string, ports: RememberedPorts): string | undefined {
  const file = join(dataDir, REMEMBERED_PORTS_FILE);
  const partial = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, `${JSON.stringify(ports)}\n`, { mode: 0o600 });
    chmodSync(partial, 0o600);
    renameSync(partial, file);
    return undefined;
  } catch (error) {
    return `could not remember the ports in ${file} (${(error as Error).message}); the next launch picks free ports again`;
  }
}
