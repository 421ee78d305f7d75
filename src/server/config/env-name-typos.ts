import { closestName } from '../../shared/closest-name.js';

/**
 * The `GATEHOUSE_*` variables Gatehouse reads (the server, `npm start`, `npm run login`): a name that
 * is a misspelling of one of them was meant for it, and would otherwise change nothing.
 */
const KNOWN_VARIABLES: readonly string[] = [
  'GATEHOUSE_CONFIG',
  'GATEHOUSE_DATA_DIR',
  'GATEHOUSE_HOST',
  'GATEHOUSE_LOG_LEVEL',
  'GATEHOUSE_LOG_FORMAT',
  'GATEHOUSE_HEADLESS',
  'GATEHOUSE_SQLITE_BINDING',
  'GATEHOUSE_GATEWAY_URL',
];

/** Every string anywhere in a parsed file: a variable it names (`api_key_env: GATEHOUSE_TEAM_KEY`) is not a typo. */
function stringsIn(value: unknown, out: Set<string>): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, out);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) stringsIn(item, out);
  return out;
}

/**
 * Set `GATEHOUSE_*` variables that Gatehouse does not read and that are spelt like one it does
 * (`GATEHOUSE_DATA_DIRR`, `GATEHOUSE_LOGLEVEL`), each with the name it most likely meant: the file's
 * unknown keys are refused, and the environment's would silently do nothing (the data would go to the
 * default folder). Other `GATEHOUSE_*` names are the user's own (a key for the SDK examples, a
 * variable the file names in `api_key_env`), and are left alone.
 */
export function envNameTypos(env: NodeJS.ProcessEnv, raw: unknown): string[] {
  const named = stringsIn(raw, new Set());
  const warnings: string[] = [];
  for (const variable of Object.keys(env).sort()) {
    if (!variable.startsWith('GATEHOUSE_') || KNOWN_VARIABLES.includes(variable) || named.has(variable)) continue;
    const meant = closestName(variable, KNOWN_VARIABLES);
    if (meant !== undefined)
      warnings.push(
        `${variable} is set, but Gatehouse reads no such variable, so it changes nothing: did you mean ${meant}?`,
      );
  }
  return warnings;
}
