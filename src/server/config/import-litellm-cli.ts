/**
 * `npm run import:litellm -- config.yaml [--out gatehouse.yaml [--force]]`: converts a LiteLLM proxy config
 * into a Gatehouse configuration file (stdout, or `--out`), and names every key it could not convert
 * on stderr. Exit codes: 0 something was converted, 1 nothing could be, 2 unusable input (two entries
 * with one id, say) or arguments.
 */
import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { callersFolder } from './callers-folder.js';
import { stringify } from 'yaml';
import { ConfigError, readConfigFile } from './load.js';
import { convertLiteLlm, isLiteLlmConfig } from './litellm-import.js';

const USAGE = 'usage: npm run import:litellm -- <litellm-config.yaml> [--out <gatehouse.yaml> [--force]]';

/**
 * The converted file's text: a header naming the source, what was converted into something that works
 * differently, and what was left out, then the YAML.
 */
function convertedYaml(
  source: string,
  config: Record<string, unknown>,
  notes: readonly string[],
  unmapped: readonly string[],
): string {
  const header = [`# Converted from the LiteLLM proxy config ${source} by npm run import:litellm.`];
  if (notes.length > 0) header.push('# Converted, working differently:', ...notes.map((line) => `#   ${line}`));
  if (unmapped.length > 0)
    header.push(
      '# Not converted (each line says why, and what to set instead where Gatehouse has something close):',
      ...unmapped.map((line) => `#   ${line}`),
    );
  return `${header.join('\n')}\n${stringify(config)}`;
}

/** Whether two paths name one file, through links too (a missing `a` names none yet). */
function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    const [first, second] = [statSync(a), statSync(b)];
    return first.dev === second.dev && first.ino === second.ino;
  } catch {
    return false;
  }
}

function fail(message: string, code: number): never {
  process.stderr.write(`import:litellm: ${message}\n`);
  process.exit(code);
}

/**
 * The variables the converted deployments read their keys from, and those not set here: a start
 * without them stops, so the user learns of them before that.
 */
function keyVariablesNote(config: Record<string, unknown>): string {
  const deployments = Array.isArray(config.deployments) ? (config.deployments as Array<{ api_key_env?: unknown }>) : [];
  const names = [...new Set(deployments.flatMap((d) => (typeof d.api_key_env === 'string' ? [d.api_key_env] : [])))];
  if (names.length === 0) return '';
  const unset = names.filter((name) => !process.env[name]);
  return `; its keys are read from ${names.join(', ')}${unset.length > 0 ? ` (not set here: ${unset.join(', ')})` : ''}`;
}

function main(args: readonly string[]): void {
  let input: string | undefined;
  let out: string | undefined;
  let force = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--force') {
      force = true;
      continue;
    }
    if (arg === '--out' || arg === '-o') out = args[++i] ?? fail(`--out needs a file name\n${USAGE}`, 2);
    else if (arg.startsWith('--out=')) out = arg.slice('--out='.length);
    else if (arg === '--help' || arg === '-h') fail(USAGE, 0);
    else if (input === undefined && !arg.startsWith('-')) input = arg;
    else fail(`unexpected argument ${arg}\n${USAGE}`, 2);
  }
  if (input === undefined) fail(USAGE, 2);
  // Named from the folder the command was typed in, as `npm run serve -- --config` is.
  const from = callersFolder();
  input = resolve(from, input);
  if (out !== undefined) out = resolve(from, out);
  if (out !== undefined && sameFile(out, input))
    fail(`--out ${out} is the LiteLLM config being read: write the conversion to another file`, 2);
  // Before anything is converted: a file already there (a Gatehouse config edited since) is not replaced unasked.
  if (out !== undefined && !force && existsSync(out)) fail(`${out} exists: pass --force to replace it`, 2);

  let raw: Record<string, unknown>;
  try {
    raw = readConfigFile(input);
  } catch (error) {
    fail(error instanceof ConfigError ? error.message : String(error), 2);
  }
  if (!isLiteLlmConfig(raw)) fail(`${input} is not a LiteLLM proxy config (no model_list or *_settings section)`, 2);
  const converted = convertLiteLlm(raw, input);
  // Nothing to convert is the input's answer (1); a file that cannot be read as one is unusable input (2).
  if ('refused' in converted) fail(converted.refused, converted.nothingConverted ? 1 : 2);
  for (const line of [...converted.notes, ...converted.unmapped]) process.stderr.write(`import:litellm: ${line}\n`);
  const text = convertedYaml(input, converted.config, converted.notes, converted.unmapped);
  if (out === undefined) process.stdout.write(text);
  else {
    try {
      // Without --force, one created meanwhile is not replaced either (the check above came first).
      writeFileSync(out, text, { mode: 0o600, flag: force ? 'w' : 'wx' });
    } catch (error) {
      fail(`cannot write ${out}: ${(error as Error).message}`, 2);
    }
    // The mode above applies only to a file it creates; one that existed keeps its own, and the output
    // may hold literal api_key values.
    chmodSync(out, 0o600);
    const count = `${converted.deployments} deployment${converted.deployments === 1 ? '' : 's'}`;
    process.stderr.write(
      `import:litellm: wrote ${out} (${count})${keyVariablesNote(converted.config)}; check it with npm run serve -- --check --config ${out}, then start with npm run serve -- --config ${out}\n`,
    );
  }
}

main(process.argv.slice(2));
