import type { z } from 'zod';
import {
  type principalLimitsSchema,
  teamCreateSchema,
  teamUpdateSchema,
  userCreateSchema,
  userUpdateSchema,
  type TeamCreate,
  type TeamRecord,
  type TeamUpdate,
  type UserCreate,
  type UserRecord,
  type UserUpdate,
  MAX_PARALLEL_REQUESTS,
} from '../../../../../shared/principals-api.js';
import { parseForm, type FormFieldRef } from '../../../lib/form-issues.js';
import { limitLabel } from '../../../lib/limit-words.js';
import { limitFieldRefs, limitsBody, limitText, type LimitField } from '../limits-form.js';

type PrincipalLimitBody = keyof z.infer<typeof principalLimitsSchema>;

/** Each field's label in the dialog, also the subject of its messages ("Id is required"). */
export const PRINCIPAL_LABELS = {
  id: 'Id',
  name: 'Display name',
  email: 'E-mail',
  team: 'Team',
  rpm: limitLabel('requests'),
  tpm: limitLabel('tokens'),
  parallel: limitLabel('parallelRequests'),
  tpmBudget: limitLabel('tokenBudgetMinute'),
  tpdBudget: limitLabel('tokenBudgetDay'),
  usd: `${limitLabel('spendBudgetDay')} (USD)`,
  usdMonthly: `${limitLabel('spendBudgetMonth')} (USD)`,
} satisfies Record<string, string>;

/** The limit fields of a user or team in the form, and what each fills in the request body. */
export const PRINCIPAL_LIMIT_FIELDS = {
  rpm: { body: 'rpm_limit', kind: 'count', label: PRINCIPAL_LABELS.rpm },
  tpm: { body: 'tpm_limit', kind: 'count', label: PRINCIPAL_LABELS.tpm },
  parallel: {
    body: 'max_parallel_requests',
    kind: 'count',
    max: MAX_PARALLEL_REQUESTS,
    label: PRINCIPAL_LABELS.parallel,
  },
  tpmBudget: { body: 'tpm_budget', kind: 'count', label: PRINCIPAL_LABELS.tpmBudget },
  tpdBudget: { body: 'tpd_budget', kind: 'count', label: PRINCIPAL_LABELS.tpdBudget },
  usd: { body: 'usd_daily_budget', kind: 'usd', label: PRINCIPAL_LABELS.usd },
  usdMonthly: { body: 'usd_monthly_budget', kind: 'usd', label: PRINCIPAL_LABELS.usdMonthly },
} as const satisfies Record<string, LimitField<PrincipalLimitBody>>;

/** The user or team form as typed: strings, because inputs are strings (empty: none). */
export interface PrincipalForm {
  readonly id: string;
  readonly name: string;
  /** Users only. */
  readonly email: string;
  /** Users only: the team's id, empty for none. */
  readonly team: string;
  readonly rpm: string;
  readonly tpm: string;
  readonly parallel: string;
  readonly tpmBudget: string;
  readonly tpdBudget: string;
  readonly usd: string;
  readonly usdMonthly: string;
}

/** Problems per form field. */
export type PrincipalErrors = Partial<Record<keyof PrincipalForm, string>>;

/** The form for a new record, or filled from the one being edited. */
export function principalForm(record?: TeamRecord | UserRecord): PrincipalForm {
  return {
    id: record?.id ?? '',
    name: record?.name ?? '',
    email: record && 'email' in record ? (record.email ?? '') : '',
    team: record && 'team' in record ? (record.team ?? '') : '',
    rpm: limitText(record?.rpm_limit),
    tpm: limitText(record?.tpm_limit),
    parallel: limitText(record?.max_parallel_requests),
    tpmBudget: limitText(record?.tpm_budget),
    tpdBudget: limitText(record?.tpd_budget),
    usd: limitText(record?.usd_daily_budget),
    usdMonthly: limitText(record?.usd_monthly_budget),
  };
}

const FIELD_REFS: Readonly<Record<string, FormFieldRef<keyof PrincipalForm>>> = {
  ...Object.fromEntries(
    (['id', 'name', 'email', 'team'] as const).map((field) => [field, { field, label: PRINCIPAL_LABELS[field] }]),
  ),
  ...limitFieldRefs(PRINCIPAL_LIMIT_FIELDS),
};

/**
 * Why a new team's or user's id cannot be created as typed: one of those listed already has it (compared
 * as the gateway compares ids: trimmed, in Unicode's composed form). One created meanwhile is still the
 * gateway's 409.
 */
export function takenIdProblem(
  kind: 'team' | 'user',
  id: string,
  existing: readonly string[] | undefined,
): string | undefined {
  const typed = id.trim().normalize('NFC');
  if (typed === '' || !existing?.some((other) => other.normalize('NFC') === typed)) return undefined;
  return `${PRINCIPAL_LABELS.id} “${typed}” is taken: there is already a ${kind} of that id.`;
}

/** A text field for a creation: trimmed, left out when empty. */
const created = (value: string): string | undefined => value.trim() || undefined;

/** A text field for an edit: left out when unchanged, `null` when emptied (cleared). */
function edited(value: string, before: string | null): string | null | undefined {
  const next = value.trim() || null;
  return next === before ? undefined : next;
}

function checked<T>(
  schema: z.ZodType<T>,
  body: unknown,
  errors: PrincipalErrors,
): { readonly body?: T; readonly errors: PrincipalErrors } {
  const parsed = parseForm(schema, body, FIELD_REFS, FIELD_REFS.id!, errors);
  return parsed.data ? { body: parsed.data, errors: {} } : { errors: parsed.errors };
}

/** `POST /internal/teams` body, checked with the shared schema. */
export function toTeamCreate(form: PrincipalForm): { readonly body?: TeamCreate; readonly errors: PrincipalErrors } {
  const limits = limitsBody(form, PRINCIPAL_LIMIT_FIELDS);
  return checked(teamCreateSchema, { id: form.id.trim(), name: created(form.name), ...limits.body }, limits.errors);
}

/** `PATCH /internal/teams/:id` body with only what changed. */
export function toTeamUpdate(
  form: PrincipalForm,
  team: TeamRecord,
): { readonly body?: TeamUpdate; readonly errors: PrincipalErrors } {
  const limits = limitsBody(form, PRINCIPAL_LIMIT_FIELDS, team);
  return checked(teamUpdateSchema, { name: edited(form.name, team.name), ...limits.body }, limits.errors);
}

/** `POST /internal/users` body, checked with the shared schema. */
export function toUserCreate(form: PrincipalForm): { readonly body?: UserCreate; readonly errors: PrincipalErrors } {
  const limits = limitsBody(form, PRINCIPAL_LIMIT_FIELDS);
  return checked(
    userCreateSchema,
    {
      id: form.id.trim(),
      name: created(form.name),
      email: created(form.email),
      team: created(form.team),
      ...limits.body,
    },
    limits.errors,
  );
}

/** `PATCH /internal/users/:id` body with only what changed. */
export function toUserUpdate(
  form: PrincipalForm,
  user: UserRecord,
): { readonly body?: UserUpdate; readonly errors: PrincipalErrors } {
  const limits = limitsBody(form, PRINCIPAL_LIMIT_FIELDS, user);
  return checked(
    userUpdateSchema,
    {
      name: edited(form.name, user.name),
      email: edited(form.email, user.email),
      team: edited(form.team, user.team),
      ...limits.body,
    },
    limits.errors,
  );
}
