import { isObject } from '../translation-error.js';

/**
 * A Messages tool's `strict: true` (Anthropic's strict tool use) for a chat completions model, whose
 * equivalent is `function.strict`. OpenAI's strict mode holds schemas to stricter rules than
 * Anthropic's (every property required, not only `additionalProperties: false`) and refuses the whole
 * request over one that breaks them, so the flag is carried only for a schema that meets them; for
 * any other the tool goes without it, as `output_config.format` does, and the arguments are not held
 * to the schema.
 */
export function strictForChat(strict: unknown, schema: Readonly<Record<string, unknown>>): { strict?: true } {
  return strict === true && meetsStrictRules(schema, 0) ? { strict: true } : {};
}

/** Deeper schemas are taken as not meeting the rules rather than walked further. */
const MAX_DEPTH = 32;

/** Every object in the schema closed (`additionalProperties: false`) with all its properties required. */
function meetsStrictRules(schema: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(schema)) return schema.every((item) => meetsStrictRules(item, depth + 1));
  if (!isObject(schema)) return true;
  const properties = isObject(schema.properties) ? schema.properties : undefined;
  if (schema.type === 'object' || properties !== undefined) {
    if (schema.additionalProperties !== false) return false;
    const required = Array.isArray(schema.required) ? schema.required : [];
    if (Object.keys(properties ?? {}).some((name) => !required.includes(name))) return false;
  }
  const nested = [
    ...Object.values(properties ?? {}),
    schema.items,
    schema.prefixItems,
    schema.anyOf,
    schema.allOf,
    schema.oneOf,
    ...Object.values(isObject(schema.$defs) ? schema.$defs : {}),
    ...Object.values(isObject(schema.definitions) ? schema.definitions : {}),
  ];
  return nested.every((inner) => inner === undefined || meetsStrictRules(inner, depth + 1));
}
