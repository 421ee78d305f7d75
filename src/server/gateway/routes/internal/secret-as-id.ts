import { secretsEqual } from '../../../http/secrets.js';
import { GatewayError } from '../../gateway-error.js';
import { KEY_PREFIX } from '../../keys/key-secret.js';

/** What an `/internal` path or body names by id. */
export type AdminIdKind = 'key' | 'user' | 'team';

const FIND: Record<AdminIdKind, string> = {
  key: "ids start with 'key_'; find the id in GET /internal/api-keys",
  user: 'find the id in GET /internal/users',
  team: 'find the id in GET /internal/teams',
};

const NOUN: Record<AdminIdKind, string> = { key: "an API key's id", user: "a user's id", team: "a team's id" };

/**
 * What is wrong with an id that is a secret (an API key's, or the master key), or undefined when it is
 * none. The two are easily pasted where an id goes, and an answer echoing one would put it in every log
 * that keeps answers, so the value is never repeated. Surrounding spaces (`%20gk-…`) are no disguise.
 */
export function secretAsId(value: string, masterKey: string, kind: AdminIdKind): string | undefined {
  const id = value.trim();
  const find = FIND[kind];
  if (secretsEqual(id, masterKey)) return `that is the master key, not ${NOUN[kind]}: ${find}`;
  if (!id.startsWith(KEY_PREFIX)) return undefined;
  if (kind === 'key')
    return `that is an API key's secret, not its id: ${find} (the secret's first characters are its key_prefix)`;
  return `that is an API key's secret, not ${NOUN[kind]}: ${find}`;
}

/**
 * The answer of a user or team route for `id`; when there is no such record and the id is a secret,
 * the 404 says so without echoing it. A record an older version let be created under such an id is
 * still read, changed and deleted as any other.
 */
export function answerWithoutEchoingSecret<T>(id: string, masterKey: string, kind: AdminIdKind, answer: () => T): T {
  try {
    return answer();
  } catch (error) {
    const problem =
      error instanceof GatewayError && error.kind === 'not_found' ? secretAsId(id, masterKey, kind) : undefined;
    if (problem !== undefined) throw new GatewayError('not_found', problem);
    throw error;
  }
}

/** Refuses a secret sent as the `:id` of a key, user or team route, as nothing has that id, without echoing it. */
export function refuseSecretAsPathId(id: string, masterKey: string, kind: AdminIdKind): void {
  const problem = secretAsId(id, masterKey, kind);
  if (problem !== undefined) throw new GatewayError('not_found', problem);
}

/**
 * Refuses (400, naming the field, never the value) a user or team id in a request body that is the
 * master key: it would become a record whose id is the secret, shown in every list, audit event and
 * usage row. Ids shaped like an API key's secret are refused by the shared id schema already.
 */
export function refuseMasterKeyAsBodyId(
  body: Readonly<Record<string, unknown>> | null | undefined,
  fields: readonly string[],
  masterKey: string,
): void {
  for (const field of fields) {
    const value = body?.[field];
    if (typeof value === 'string' && secretsEqual(value.trim(), masterKey))
      throw new GatewayError(
        'invalid',
        `${field}: that is the master key; ids are shown in lists, the audit log and usage, so one must be no secret`,
      );
  }
}
