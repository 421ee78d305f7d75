import { describe, expect, it } from 'vitest';
import { findMigrationsDir, migrationJournal } from '../../src/server/db/connection.js';

// Drizzle's migrator applies only the migrations made after the database's newest, and the start's
// newer-version check compares the same times: a migration whose `when` is not later than the one
// before it (merged from a branch made earlier) would be skipped, silently, on every database already
// upgraded past it.

type Journal = ReturnType<typeof migrationJournal>;

/** Each entry not later than the one before it, named. */
function outOfOrder(journal: Journal): string[] {
  return journal.flatMap((entry, index) => {
    const before = journal[index - 1];
    return before !== undefined && entry.when <= before.when
      ? [`${entry.tag} (${entry.when}) is not later than ${before.tag} (${before.when})`]
      : [];
  });
}

describe('the migrations journal', () => {
  it('lists every migration later than the one before it', () => {
    const journal = migrationJournal(findMigrationsDir());
    expect(journal.length).toBeGreaterThan(1);
    expect(outOfOrder(journal)).toEqual([]);
  });

  it('would name a migration merged with an older time, or the same one', () => {
    const journal = [
      { tag: '0000_a', when: 1000 },
      { tag: '0001_b', when: 3000 },
      { tag: '0002_from_a_branch', when: 2000 },
      { tag: '0003_c', when: 2000 },
    ];
    expect(outOfOrder(journal)).toEqual([
      '0002_from_a_branch (2000) is not later than 0001_b (3000)',
      '0003_c (2000) is not later than 0002_from_a_branch (2000)',
    ]);
  });
});
