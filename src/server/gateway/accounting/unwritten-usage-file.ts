import { closeSync, fsyncSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { UsageEntry } from './usage-entry.js';

/** The usage rows a stopping server could not write, as `usage-unwritten-<time>.jsonl` in the data folder. */
export const UNWRITTEN_USAGE_FILE = /^usage-unwritten-[0-9TZ-]+\.jsonl$/;

const count = z.number().int().nonnegative();
const nullableText = z.string().nullable();

/** One row as {@link writeUnwrittenUsage} wrote it: the fields of a {@link UsageEntry}, nothing else. */
const usageEntrySchema = z
  .object({
    requestId: z.string().min(1),
    createdAt: count,
    keyId: nullableText,
    ownerUser: nullableText,
    team: nullableText,
    endpoint: z.string().min(1),
    model: nullableText,
    requestedModel: nullableText,
    deployment: nullableText,
    provider: nullableText,
    promptTokens: count,
    completionTokens: count,
    cacheReadPromptTokens: count.nullable().optional(),
    cacheWritePromptTokens: count.nullable().optional(),
    reasoningTokens: count.nullable().optional(),
    costUsd: z.number().nonnegative(),
    latencyMs: z.number().nonnegative(),
    status: z.number().int(),
    errorType: nullableText,
    stream: z.boolean(),
    cached: z.boolean(),
    admitted: z.boolean(),
    ragCollections: nullableText.optional(),
    traceId: nullableText.optional(),
    attempts: count.nullable().optional(),
    tokensEstimated: z.boolean().optional(),
    cacheStatus: z.enum(['hit', 'miss', 'bypass', 'refresh']).nullable().optional(),
    savedPromptTokens: count.nullable().optional(),
    savedCompletionTokens: count.nullable().optional(),
    savedCostUsd: z.number().nonnegative().nullable().optional(),
    cacheAgeS: count.nullable().optional(),
  })
  .strict() satisfies z.ZodType<UsageEntry>;

/**
 * Writes `rows` to a new `usage-unwritten-<time>.jsonl` in `dataDir`, one JSON row a line, readable by
 * its owner only (rows name keys by id, users and teams, never a secret), synced before it counts as
 * written; returns its path. A write that fails (a full disk) leaves no part of the file behind.
 */
export function writeUnwrittenUsage(dataDir: string, rows: readonly UsageEntry[], now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  for (let attempt = 0; ; attempt += 1) {
    const path = join(dataDir, `usage-unwritten-${stamp}${attempt === 0 ? '' : `-${attempt}`}.jsonl`);
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      // Another stop in the same millisecond (tests, a desktop app quitting twice): the next name.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 100) continue;
      throw error;
    }
    try {
      writeFileSync(fd, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      rmSync(path, { force: true });
      throw error;
    }
    closeSync(fd);
    return path;
  }
}

/** The rows of such a file, or why it cannot be read as one (the line and the field). */
export function readUnwrittenUsage(path: string): { rows: UsageEntry[] } | { problem: string } {
  const lines = readFileSync(path, 'utf8').split('\n');
  // The last line ends with a newline: what follows it is empty, anything else is a cut-off line.
  if (lines.at(-1) === '') lines.pop();
  const rows: UsageEntry[] = [];
  for (const [index, line] of lines.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { problem: `line ${index + 1} is not JSON` };
    }
    const parsed = usageEntrySchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { problem: `line ${index + 1}: ${issue.path.join('.') || 'the row'}: ${issue.message}` };
    }
    rows.push(parsed.data);
  }
  return { rows };
}
