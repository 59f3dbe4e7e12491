/**
 * Model configuration, exactly as the original read it (§10.7): values from the process
 * environment and from a `.env` file, with its precedence rules; model aliases from a
 * `models.yaml`. Unlike the original, a value that does not parse is an error naming the
 * variable, not a silent default.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { parse as parseYaml } from 'yaml';
import type { GenerateParams } from './types.js';
import { errorMessage, SmiError, type SmiErrorOptions } from '@smi/bytecode';

/** The resolved configuration of a real model. */
export interface ModelConfig {
  provider: 'openai_compatible';
  apiKey: string;
  baseUrl: string;
  model: string;
  temperature: number;
  maxTokens: number | null;
  thinking: string | null;
  clearThinking: boolean | null;
  responseFormat: 'json_object' | null;
  /** `SMI_MIN_REQUEST_TIMEOUT_SECONDS`: the shortest per-request timeout, s. */
  minRequestTimeoutS: number | null;
  /** `SMI_MAX_REQUEST_RETRIES`: attempts per request (the original's default 6). */
  maxRequestRetries: number;
}

/** A configuration problem (missing key or model, a value that does not parse). */
export class ModelConfigError extends SmiError<'MODEL_CONFIG'> {
  override readonly name = 'ModelConfigError';

  constructor(message: string, options?: SmiErrorOptions) {
    super('MODEL_CONFIG', message, options);
  }
}

/** Variables of a `.env` file (`KEY=value` lines, as Node's `util.parseEnv` reads them). */
export function readDotenv(file: string): Record<string, string> {
  if (!existsSync(file)) throw new ModelConfigError(`env file ${file} not found`);
  return parseEnv(readFileSync(file, 'utf8')) as Record<string, string>;
}

/**
 * Resolve the configuration. `env` is the process environment, `dotenv` a `.env` file's
 * variables. For each setting the keys are tried in order; the first present (in either)
 * decides, and for it the `.env` value wins over the process, except `SMI_API_KEY` and
 * `SMI_API_BASE_URL`, where the process wins (an operator override). API keys: process
 * `SMI_API_KEY`, `.env` `SMI_API_KEY`, then `OPENAI_API_KEY`, `OPENROUTER_API_KEY`,
 * `ZAI_API_KEY`, `ZHIPUAI_API_KEY` (`.env` before process for each).
 */
export function resolveModelConfig(env: Readonly<Record<string, string | undefined>>, dotenv: Readonly<Record<string, string>> = {}): ModelConfig {
  const operatorWins = new Set(['SMI_API_KEY', 'SMI_API_BASE_URL']);
  const get = (...keys: string[]): string | undefined => {
    for (const k of keys) {
      const fromEnv = env[k] || undefined;
      const fromFile = dotenv[k] || undefined;
      if (fromEnv === undefined && fromFile === undefined) continue;
      return operatorWins.has(k) ? (fromEnv ?? fromFile) : (fromFile ?? fromEnv);
    }
    return undefined;
  };
  let apiKey = env.SMI_API_KEY || dotenv.SMI_API_KEY || undefined;
  for (const k of ['OPENAI_API_KEY', 'OPENROUTER_API_KEY', 'ZAI_API_KEY', 'ZHIPUAI_API_KEY']) apiKey ??= dotenv[k] || env[k] || undefined;
  const provider = get('SMI_PROVIDER') ?? 'openai_compatible';
  if (provider !== 'openai_compatible') throw new ModelConfigError(`SMI_PROVIDER=${provider}: only openai_compatible is supported`);
  if (apiKey === undefined) throw new ModelConfigError('missing API key (set SMI_API_KEY, OPENROUTER_API_KEY, or OPENAI_API_KEY)');
  const model = get('SMI_MODEL', 'OPENAI_MODEL');
  if (model === undefined) throw new ModelConfigError('missing model (set SMI_MODEL or OPENAI_MODEL)');
  const baseUrl = (get('SMI_API_BASE_URL', 'OPENROUTER_BASE_URL', 'OPENAI_BASE_URL', 'OPENAI_API_BASE') ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  const num = (name: string, text: string | undefined, min: number, max: number, integer: boolean): number | undefined => {
    if (text === undefined) return undefined;
    const v = Number(text.trim());
    if (text.trim() === '' || !Number.isFinite(v) || (integer && !Number.isInteger(v))) throw new ModelConfigError(`${name}=${JSON.stringify(text)}: expected ${integer ? 'an integer' : 'a number'}`);
    if (v < min || v > max) throw new ModelConfigError(`${name}=${text}: out of range [${min}, ${max}]`);
    return v;
  };
  const clear = get('SMI_CLEAR_THINKING');
  let clearThinking: boolean | null = null;
  if (clear !== undefined) {
    const s = clear.trim().toLowerCase();
    if (['1', 'true', 't', 'yes', 'y', 'on'].includes(s)) clearThinking = true;
    else if (['0', 'false', 'f', 'no', 'n', 'off'].includes(s)) clearThinking = false;
    else throw new ModelConfigError(`invalid SMI_CLEAR_THINKING=${JSON.stringify(clear)} (expected 'true', 'false', '1', '0', 'yes', 'no')`);
  }
  const responseFormat = get('SMI_RESPONSE_FORMAT');
  if (responseFormat !== undefined && responseFormat !== 'json_object') throw new ModelConfigError(`unsupported SMI_RESPONSE_FORMAT=${JSON.stringify(responseFormat)} (json_object only)`);
  return {
    provider: 'openai_compatible',
    apiKey,
    baseUrl,
    model,
    temperature: num('SMI_TEMPERATURE', get('SMI_TEMPERATURE'), 0, 2, false) ?? 0,
    // The original sent 4096 unless told otherwise; `none` sends no limit (the server's own).
    maxTokens: get('SMI_MAX_TOKENS')?.trim().toLowerCase() === 'none' ? null : (num('SMI_MAX_TOKENS', get('SMI_MAX_TOKENS'), 1, 100000, true) ?? DEFAULT_MAX_TOKENS),
    thinking: get('SMI_THINKING') ?? null,
    clearThinking,
    responseFormat: (responseFormat as 'json_object' | undefined) ?? null,
    minRequestTimeoutS: num('SMI_MIN_REQUEST_TIMEOUT_SECONDS', get('SMI_MIN_REQUEST_TIMEOUT_SECONDS', 'SMI_MIN_REQUEST_TIMEOUT_S'), 1, 3600, false) ?? null,
    maxRequestRetries: num('SMI_MAX_REQUEST_RETRIES', get('SMI_MAX_REQUEST_RETRIES'), 0, 20, true) ?? 6,
  };
}

/** The generation parameters a configuration asks for. */
export function generateParams(c: ModelConfig): GenerateParams {
  return {
    temperature: c.temperature,
    ...(c.maxTokens !== null ? { maxTokens: c.maxTokens } : {}),
    ...(c.thinking !== null ? { thinking: { type: c.thinking, ...(c.clearThinking !== null ? { clear_thinking: c.clearThinking } : {}) } } : {}),
    ...(c.responseFormat !== null ? { responseFormat: { type: c.responseFormat } } : {}),
  };
}

/** `max_tokens` of every request unless `SMI_MAX_TOKENS` says otherwise (the original's default). */
const DEFAULT_MAX_TOKENS = 4096;

/** `models.yaml`: aliases → model ids, the default alias, provider settings. */
export interface ModelsFile {
  models: Record<string, { name: string; description?: string }>;
  default?: string;
  openrouter?: { api_base_url?: string; temperature?: number; max_tokens?: number | null };
}

/** Read a `models.yaml`. */
export function readModelsFile(file: string): ModelsFile {
  if (!existsSync(file)) throw new ModelConfigError(`models file ${file} not found`);
  let v: unknown;
  try {
    v = parseYaml(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ModelConfigError(`${file}: not YAML: ${errorMessage(e)}`);
  }
  const o = v as Partial<ModelsFile> | null;
  if (o === null || typeof o !== 'object' || typeof o.models !== 'object' || o.models === null) throw new ModelConfigError(`${file}: expected a "models:" mapping`);
  for (const [alias, m] of Object.entries(o.models)) {
    if (typeof m?.name !== 'string') throw new ModelConfigError(`${file}: models.${alias} has no name`);
  }
  return o as ModelsFile;
}

/** The model id of `nameOrAlias` (an alias of `models`, `default` for its default, or itself). */
export function resolveModelAlias(models: ModelsFile | null, nameOrAlias: string): string {
  if (models === null) return nameOrAlias;
  const alias = nameOrAlias === 'default' && models.default !== undefined ? models.default : nameOrAlias;
  return models.models[alias]?.name ?? nameOrAlias;
}

/** Models whose names suggest long reasoning (the original gave them more tokens). */
export function isReasoningModel(model: string): boolean {
  return ['deepseek', 'o1', 'o3', 'glm', 'qwen', 'thinking'].some((x) => model.toLowerCase().includes(x));
}
