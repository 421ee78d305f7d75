import type { AuditEvent } from '../../../../../shared/gateway-api.js';

/** A field's value on one side of a change: known, not there (created, deleted), or not recorded. */
export type SideValue =
  { readonly kind: 'value'; readonly value: unknown } | { readonly kind: 'absent' } | { readonly kind: 'unknown' };

/** One field an event changed, by its dotted path (`limits.rpm`), with what it held before and after. */
export interface FieldChange {
  readonly field: string;
  readonly before: SideValue;
  readonly after: SideValue;
}

/** One detail of an event that is not a before/after pair (`purged`, `responses_deleted`, a key's name). */
export interface FieldDetail {
  readonly field: string;
  readonly value: unknown;
}

/** What an event's details say, split into the changes and the rest. */
export interface EventChanges {
  readonly changes: readonly FieldChange[];
  readonly details: readonly FieldDetail[];
  /** The "before" side was read from the target's earlier events, not recorded with this one. */
  readonly beforeFromHistory: boolean;
}

const ABSENT: SideValue = { kind: 'absent' };
const UNKNOWN: SideValue = { kind: 'unknown' };
const known = (value: unknown): SideValue => ({ kind: 'value', value });

const isPlainObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Nested settings as one row per leaf (`rules.email`), so a change deep inside reads as one line. */
function flatten(value: unknown, prefix = '', into = new Map<string, unknown>()): Map<string, unknown> {
  if (isPlainObject(value) && (Object.keys(value).length > 0 || prefix === '')) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, into);
  } else {
    into.set(prefix, value);
  }
  return into;
}

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function detailsOf(details: Readonly<Record<string, unknown>>, leaveOut: readonly string[]): FieldDetail[] {
  return Object.entries(details)
    .filter(([field]) => !leaveOut.includes(field))
    .map(([field, value]) => ({ field, value }));
}

/** `before` and `after` objects (updates, resets, deletes): the fields that differ. */
function pairChanges(before: unknown, after: unknown): FieldChange[] {
  const old = isPlainObject(before) ? flatten(before) : new Map<string, unknown>();
  const now = isPlainObject(after) ? flatten(after) : new Map<string, unknown>();
  const fields = [...new Set([...old.keys(), ...now.keys()])];
  return fields
    .filter((field) => !old.has(field) || !now.has(field) || !sameValue(old.get(field), now.get(field)))
    .map((field) => ({
      field,
      before: old.has(field) ? known(old.get(field)) : ABSENT,
      after: now.has(field) ? known(now.get(field)) : ABSENT,
    }));
}

/** The fields a key's update set: those it names in `fields`, or (a key following its user's team) all but the note. */
function keyUpdateFields(details: Readonly<Record<string, unknown>>): string[] {
  const named = details.fields;
  if (Array.isArray(named)) return named.filter((field): field is string => typeof field === 'string');
  return Object.keys(details).filter((field) => field !== 'following_user' && field !== 'before');
}

/**
 * What `field` held before a key's update, from the key's earlier events (newest first): the latest
 * update that set it, else its issue. Unknown when neither is among them.
 */
function earlierValue(field: string, earlier: readonly AuditEvent[]): SideValue {
  for (const event of earlier) {
    const details = event.details ?? {};
    if (event.action === 'api_key.update' && keyUpdateFields(details).includes(field)) return known(details[field]);
    if (event.action === 'api_key.create') return field in details ? known(details[field]) : UNKNOWN;
  }
  return UNKNOWN;
}

/**
 * An event's changes as field rows. Updates with `before`/`after` show the fields that differ; a delete
 * (only `before`) shows what was removed. A key's update records its new values flat and the old ones
 * under `before`; one recorded by an earlier version has only the new values: with `earlier` (the key's
 * events before it, newest first) the old ones are read from there.
 */
export function eventChanges(event: AuditEvent, earlier?: readonly AuditEvent[]): EventChanges {
  const details = event.details ?? {};
  if (event.action === 'api_key.update' && isPlainObject(details.before)) {
    const fields = keyUpdateFields(details);
    const held = details.before;
    return {
      changes: fields.map((field) => ({
        field,
        before: field in held ? known(held[field]) : UNKNOWN,
        after: known(details[field]),
      })),
      details: detailsOf(details, ['fields', 'before', ...fields]),
      beforeFromHistory: false,
    };
  }
  if ('before' in details || 'after' in details) {
    return {
      changes: pairChanges(details.before, details.after),
      details: detailsOf(details, ['before', 'after']),
      beforeFromHistory: false,
    };
  }
  if (event.action === 'api_key.update') {
    const fields = keyUpdateFields(details);
    return {
      changes: fields.map((field) => ({
        field,
        before: earlier ? earlierValue(field, earlier) : UNKNOWN,
        after: known(details[field]),
      })),
      details: detailsOf(details, ['fields', ...fields]),
      beforeFromHistory: true,
    };
  }
  return { changes: [], details: detailsOf(details, []), beforeFromHistory: false };
}

/** A value as one short line: `none` for null, text as it is, lists and objects as JSON. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A side of a change as a table cell reads it. */
export function sideText(side: SideValue): string {
  switch (side.kind) {
    case 'value':
      return valueText(side.value);
    case 'absent':
      return '—';
    case 'unknown':
      return 'not recorded';
  }
}

const SUMMARY_PARTS = 3;
const RECORD_FIELDS: readonly string[] = ['id', 'created_at', 'updated_at'];
const SUMMARY_VALUE_CHARS = 40;

const short = (text: string): string =>
  text.length > SUMMARY_VALUE_CHARS ? `${text.slice(0, SUMMARY_VALUE_CHARS - 1)}…` : text;

function withMore(parts: readonly string[]): string {
  const shown = parts.slice(0, SUMMARY_PARTS).join(', ');
  return parts.length > SUMMARY_PARTS ? `${shown} (+${parts.length - SUMMARY_PARTS} more)` : shown;
}

/** One line saying what an event changed, for the list: `usd_daily_budget: 5 → 10`, `deleted`, `name: ci`. */
export function eventSummary(event: AuditEvent): string {
  const { changes, details } = eventChanges(event);
  if (changes.length > 0) {
    if (changes.every((change) => change.after.kind === 'absent')) {
      // The id is the target's, and the record's own times say nothing about what was lost.
      const held = changes.filter(
        (change) =>
          change.before.kind === 'value' && change.before.value !== null && !RECORD_FIELDS.includes(change.field),
      );
      return `deleted, as it was: ${withMore(held.map((change) => `${change.field}: ${short(sideText(change.before))}`))}`;
    }
    return withMore(
      changes.map((change) =>
        change.before.kind === 'value'
          ? `${change.field}: ${short(sideText(change.before))} → ${short(sideText(change.after))}`
          : `${change.field} → ${short(sideText(change.after))}`,
      ),
    );
  }
  // Unset limits say nothing about what happened: an issued key reads by what it was given.
  const set = details.filter((detail) => detail.value !== null && detail.value !== undefined);
  return withMore(set.map((detail) => `${detail.field}: ${short(valueText(detail.value))}`));
}
