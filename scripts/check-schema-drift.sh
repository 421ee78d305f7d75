#!/usr/bin/env bash
# Fails when the Drizzle schema and the migrations in drizzle/ disagree: generating from the
# schema must write nothing new.
set -eu
cd "$(dirname "$0")/.."
before=$(ls drizzle/*.sql | wc -l)
npx drizzle-kit generate >/dev/null
after=$(ls drizzle/*.sql | wc -l)
if [ "$before" != "$after" ] || { git rev-parse --git-dir >/dev/null 2>&1 && [ -n "$(git status --porcelain -- drizzle/)" ]; }; then
  echo "drizzle/ is out of date with src/server/db/schema: run 'npm run db:generate' and commit the migration"
  git status --porcelain -- drizzle/ 2>/dev/null || true
  exit 1
fi
echo "drizzle/ matches the schema"
