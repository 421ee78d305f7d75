import { PII_ENTITY_TYPES, type PiiEntityType } from '../../../../shared/guardrails-api.js';

/** The placeholder word of each entity type: `[EMAIL_1]`, `[CREDIT_CARD_2]`, ... */
export const PLACEHOLDER_WORDS: Readonly<Record<PiiEntityType, string>> = {
  email: 'EMAIL',
  phone: 'PHONE',
  credit_card: 'CREDIT_CARD',
  iban: 'IBAN',
  ip_address: 'IP_ADDRESS',
  national_id: 'NATIONAL_ID',
  secret: 'SECRET',
};

/** Any placeholder of any type, complete. Built once; callers reset `lastIndex` or use `replace`. */
export const PLACEHOLDER = new RegExp(
  `\\[(?:${PII_ENTITY_TYPES.map((t) => PLACEHOLDER_WORDS[t]).join('|')})_\\d+\\]`,
  'g',
);

/** Longest placeholder text considered (`[NATIONAL_ID_` plus digits and `]`): what a stream may hold back. */
export const MAX_PLACEHOLDER_CHARS = 24;

/** The placeholder of the `n`th distinct value of a type in a request. */
export function placeholder(type: PiiEntityType, n: number): string {
  return `[${PLACEHOLDER_WORDS[type]}_${n}]`;
}
