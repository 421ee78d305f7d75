import { MAX_CACHE_TTL_SECONDS } from '../../shared/cache-api.js';
import {
  envReference,
  isObject,
  retryCount,
  secondsToMs,
  STREAM_TIMEOUT,
  type UnmappedKey,
} from './litellm-model-list.js';

/**
 * LiteLLM's settings sections (router_settings, litellm_settings, general_settings) and top-level
 * keys (include, guardrails) as Gatehouse settings, or reported by path with the closest setting.
 */

type Json = Record<string, unknown>;

const FALLBACKS = ['fallbacks', 'context_window_fallbacks', 'content_policy_fallbacks', 'default_fallbacks'];
const NO_CROSS_MODEL_FALLBACK =
  'Gatehouse falls back only between deployments of the same model, never to another model';

/** Reports each fallback rule of a `fallbacks`-style list, naming the models (never secrets). */
function reportFallbacks(value: unknown, at: string, unmapped: UnmappedKey[]): void {
  if (!Array.isArray(value)) {
    unmapped.push({ path: at, reason: NO_CROSS_MODEL_FALLBACK });
    return;
  }
  value.forEach((rule, index) => {
    const entries = isObject(rule) ? Object.entries(rule) : [];
    if (entries.length === 0) unmapped.push({ path: `${at}[${index}]`, reason: NO_CROSS_MODEL_FALLBACK });
    for (const [model, targets] of entries) {
      // Falling back to another deployment of the same model group is what Gatehouse does on its own.
      const others = Array.isArray(targets) ? targets.filter((t) => typeof t === 'string' && t !== model) : [];
      if (Array.isArray(targets) && others.length === 0 && targets.length > 0 && targets.every((t) => t === model))
        continue;
      unmapped.push({
        path: `${at}[${index}].${model}`,
        reason: `${NO_CROSS_MODEL_FALLBACK} (${others.join(', ') || '?'})`,
      });
    }
  });
}

/** `router_settings.model_group_alias` as `llm.model_aliases` (values are a model name or `{model, hidden}`). */
function convertAliases(value: unknown, at: string, unmapped: UnmappedKey[]): Record<string, string> {
  const aliases: Record<string, string> = {};
  if (!isObject(value)) {
    unmapped.push({ path: at, reason: 'not a mapping' });
    return aliases;
  }
  for (const [alias, target] of Object.entries(value)) {
    // `gpt-4o: gpt-4o` does nothing in LiteLLM; as a Gatehouse alias it would point at itself and stop the start.
    if (alias === (isObject(target) ? target.model : target))
      unmapped.push({ path: `${at}.${alias}`, reason: 'names its own model: there is nothing to alias' });
    else if (typeof target === 'string' && target !== '') aliases[alias] = target;
    else if (isObject(target) && typeof target.model === 'string') {
      aliases[alias] = target.model;
      // Gatehouse never lists aliases in /v1/models, so `hidden: true` is what it does anyway.
      if (target.hidden === false) unmapped.push({ path: `${at}.${alias}.hidden`, reason: 'aliases are not listed' });
    } else unmapped.push({ path: `${at}.${alias}`, reason: 'neither a model name nor {model: ...}' });
  }
  return aliases;
}

/** Why a settings key LiteLLM reads has no one Gatehouse setting, naming the closest; undefined for another key. */
function closestSetting(section: string, key: string, value: unknown): string | undefined {
  if (key === 'routing_strategy')
    return `Gatehouse has no ${typeof value === 'string' ? value : 'other strategy'}: it tries a model's deployments in weighted random order (simple-shuffle), skipping those cooling down; steer traffic with each deployment's weight`;
  if (key === 'stream_timeout') return STREAM_TIMEOUT;
  if (section === 'router_settings' && key.startsWith('redis_'))
    return "Gatehouse keeps its routing state (limits, cooldowns) in the gateway's memory and uses no redis";
  if (section === 'litellm_settings' && key === 'max_budget')
    return "LiteLLM's budget for the whole proxy; Gatehouse budgets each key, user and team: set limits.keys (or users, teams) usd_daily_budget or usd_monthly_budget (docs/limits.md)";
  if (section === 'litellm_settings' && key === 'budget_duration')
    return "Gatehouse's budgets run per UTC day (usd_daily_budget) or calendar month (usd_monthly_budget) of limits.keys, users or teams (docs/limits.md)";
  return undefined;
}

const CACHE_TYPES_IN_PROCESS = ['local', 'in-memory'];

/**
 * `litellm_settings.cache` / `cache_params` as Gatehouse's `cache` section. LiteLLM caches any
 * request, sampled or not, so `sampled: true` keeps that; where LiteLLM kept the answers (redis, s3,
 * a semantic store) Gatehouse keeps them in the gateway's memory, matched exactly.
 */
function convertCache(litellm: Json, unmapped: UnmappedKey[], notes: string[]): Json | undefined {
  const { cache, cache_params: params } = litellm;
  if (cache !== undefined && typeof cache !== 'boolean')
    unmapped.push({ path: 'litellm_settings.cache', reason: 'not true or false' });
  if (cache !== true) {
    if (params !== undefined)
      unmapped.push({
        path: 'litellm_settings.cache_params',
        reason: 'LiteLLM reads it only with litellm_settings.cache: true, which this file does not set',
      });
    return undefined;
  }
  const converted: Json = { enabled: true, sampled: true };
  const where: string[] = [];
  if (isObject(params)) {
    for (const [key, value] of Object.entries(params)) {
      const path = `litellm_settings.cache_params.${key}`;
      if (key === 'ttl') {
        if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_CACHE_TTL_SECONDS)
          converted.ttl_seconds = value;
        else unmapped.push({ path, reason: `cache.ttl_seconds takes 1 to ${MAX_CACHE_TTL_SECONDS} whole seconds` });
      } else if (key === 'type') {
        if (typeof value !== 'string') unmapped.push({ path, reason: 'not a string' });
        else if (!CACHE_TYPES_IN_PROCESS.includes(value)) where.push(value);
      } else
        unmapped.push({
          path,
          reason:
            "Gatehouse's cache is in the gateway's memory, bounded by cache.max_entries and cache.max_bytes (docs/cache-and-traces.md)",
        });
    }
  } else if (params !== undefined) unmapped.push({ path: 'litellm_settings.cache_params', reason: 'not a mapping' });
  const kept = where.length > 0 ? `kept in process, not in ${where.join(', ')}` : "kept in the gateway's memory";
  const semantic = where.some((type) => type.includes('semantic')) ? ', matched exactly rather than by meaning' : '';
  notes.push(
    `litellm_settings.cache: became cache.enabled: true${converted.ttl_seconds === undefined ? '' : ` with cache.ttl_seconds: ${String(converted.ttl_seconds)}`} and cache.sampled: true (LiteLLM caches sampled answers too); answers are ${kept}${semantic}, and a restart empties the cache`,
  );
  return converted;
}

/** The settings sections that shape the gateway: retries, the default timeout, aliases, routing. */
export function convertSettings(raw: Json, unmapped: UnmappedKey[], notes: string[]) {
  const router = isObject(raw.router_settings) ? raw.router_settings : {};
  const litellm = isObject(raw.litellm_settings) ? raw.litellm_settings : {};
  let maxRetries: number | undefined;
  let timeoutMs: number | undefined;
  let aliases: Record<string, string> = {};
  const cooldown: { cooldown_after_failures?: number; cooldown_ms?: number } = {};
  const cache = convertCache(litellm, unmapped, notes);
  const sections: Array<[string, Json]> = [
    ['router_settings', router],
    ['litellm_settings', litellm],
  ];
  for (const [section, values] of sections) {
    for (const [key, value] of Object.entries(values)) {
      const path = `${section}.${key}`;
      if (key === 'num_retries') {
        const count = retryCount(value);
        if (count === undefined) unmapped.push({ path, reason: 'Gatehouse takes 0 to 10 retries' });
        else if (maxRetries === undefined) maxRetries = count;
        else if (count !== maxRetries)
          unmapped.push({ path, reason: 'router_settings.num_retries is used instead (Gatehouse has one)' });
      } else if ((section === 'router_settings' && key === 'timeout') || key === 'request_timeout') {
        const ms = secondsToMs(value);
        if (ms === undefined) unmapped.push({ path, reason: 'not a positive number of seconds' });
        else if (timeoutMs === undefined) timeoutMs = ms;
        else if (ms !== timeoutMs)
          unmapped.push({ path, reason: 'router_settings.timeout is used instead (Gatehouse has one default)' });
      } else if (section === 'router_settings' && COOLDOWN_KEYS.includes(key)) {
        convertCooldown(key, value, path, cooldown, unmapped);
      } else if (section === 'router_settings' && key === 'model_group_alias') {
        aliases = convertAliases(value, path, unmapped);
      } else if (section === 'router_settings' && key === 'routing_strategy' && value === 'simple-shuffle') {
        // LiteLLM's default, weighted random order, is how Gatehouse orders deployments.
      } else if (FALLBACKS.includes(key)) {
        reportFallbacks(value, path, unmapped);
      } else if (section === 'litellm_settings' && (key === 'cache' || key === 'cache_params')) {
        // convertCache above.
      } else {
        unmapped.push({ path, reason: closestSetting(section, key, value) ?? 'no Gatehouse equivalent' });
      }
    }
  }
  return { maxRetries, timeoutMs, aliases, cooldown, cache };
}

const COOLDOWN_KEYS = ['allowed_fails', 'cooldown_time', 'disable_cooldowns'];

/**
 * LiteLLM's cooldown as Gatehouse's: `allowed_fails` failures are allowed and the next one starts a
 * cooldown (Gatehouse counts them in a row, LiteLLM within a minute), `cooldown_time` is in seconds,
 * `disable_cooldowns: true` is a cooldown of 0.
 */
function convertCooldown(
  key: string,
  value: unknown,
  path: string,
  cooldown: { cooldown_after_failures?: number; cooldown_ms?: number },
  unmapped: UnmappedKey[],
): void {
  if (key === 'allowed_fails') {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 100)
      cooldown.cooldown_after_failures = value + 1;
    else unmapped.push({ path, reason: 'Gatehouse takes 0 to 99 allowed failures' });
  } else if (key === 'cooldown_time') {
    if (typeof value === 'number' && value >= 0 && value <= 3600) cooldown.cooldown_ms ??= Math.round(value * 1000);
    else unmapped.push({ path, reason: 'Gatehouse takes a cooldown of 0 to 3600 seconds' });
  } else if (value === true) cooldown.cooldown_ms = 0;
  else if (value !== false) unmapped.push({ path, reason: 'not true or false' });
}

/** `general_settings`: only a master key read from PROXY_MASTER_KEY means the same in Gatehouse. */
export function reportGeneral(raw: Json, unmapped: UnmappedKey[]): void {
  if (!isObject(raw.general_settings)) return;
  for (const [key, value] of Object.entries(raw.general_settings)) {
    const path = `general_settings.${key}`;
    if (key === 'master_key') {
      const env = envReference(value);
      if (env === 'PROXY_MASTER_KEY') continue;
      const from = env === undefined ? 'this key' : `the value of ${env}`;
      unmapped.push({
        path,
        reason: `Gatehouse reads the master key from PROXY_MASTER_KEY (or generates one): set PROXY_MASTER_KEY to ${from}`,
      });
    } else unmapped.push({ path, reason: 'no Gatehouse equivalent' });
  }
}

/** `include:` names files whose models and settings LiteLLM merges in; the import reads this file alone. */
export function reportIncludes(value: unknown, unmapped: UnmappedKey[]): void {
  const files = Array.isArray(value) ? value : [value];
  files.forEach((file, index) => {
    const path = Array.isArray(value) ? `include[${index}]` : 'include';
    unmapped.push({
      path,
      reason:
        typeof file === 'string' && file !== ''
          ? `the models and settings of ${file} were not read: convert that file too (npm run import:litellm -- ${file}) and merge the result into this one`
          : 'not a file name',
    });
  });
}

/** LiteLLM's guardrails, by name; a Presidio PII guardrail names Gatehouse's own PII scrubbing. */
export function reportGuardrails(value: unknown, unmapped: UnmappedKey[]): void {
  if (!Array.isArray(value)) {
    unmapped.push({ path: 'guardrails', reason: 'not a list' });
    return;
  }
  value.forEach((entry, index) => {
    const params = isObject(entry) && isObject(entry.litellm_params) ? entry.litellm_params : {};
    const presidio = typeof params.guardrail === 'string' && params.guardrail.startsWith('presidio');
    unmapped.push({
      path: `guardrails[${index}]`,
      reason: presidio
        ? 'Gatehouse scrubs PII itself, without Presidio, and finds other entities (e-mails, phones, cards, IBANs, IP addresses, national ids, secrets; not names or places): set pii.mode: mask to restore the originals in the answer (as output_parse_pii: true), redact to keep placeholders, or block to refuse (docs/pii-and-policy.md)'
        : "no Gatehouse equivalent; Gatehouse's own guardrails are pii and content_policy (docs/pii-and-policy.md)",
    });
  });
}
