/**
 * What the benchmark commands share: the model (configured from the environment and a
 * `.env` file exactly as the original read them, with `--model` aliases from a
 * `models.yaml`), its response cache and price, and where a run lives (a run directory
 * under `--log-dir`, an explicit `--run-dir`, or memory with `--no-log`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import {
  CachedModel,
  defaultRunId,
  DiskRunStore,
  generateParams,
  type GenerateParams,
  MemoryRunStore,
  type ModelClient,
  type ModelConfig,
  type ModelPrice,
  OpenAiCompatibleModel,
  readModelsFile,
  readPriceTable,
  redactSecret,
  ReplayModel,
  resolveModelAlias,
  resolveModelConfig,
  ResponseCache,
  runAnswers,
  type RunState,
  type RunStore,
  type RunTotals,
  safeFileName,
} from '@smi/harness';
import { type CliIo, readInput, resolveInputPath, resolvePath, UsageError } from './io.js';

/** Options of the model, shared by the benchmark commands. */
export interface ModelArgs {
  dotenv?: string;
  'env-file'?: string;
  model?: string;
  'models-file'?: string;
  prices?: string;
  'cache-dir'?: string;
  cache: boolean;
  replay: boolean;
  'replay-run'?: string;
  'request-timeout-seconds': number;
}

/** The model options as yargs declarations (merged into a command's options). */
export const MODEL_OPTIONS = {
  dotenv: { type: 'string', describe: 'dotenv file with SMI_API_KEY, SMI_MODEL, SMI_API_BASE_URL, ..., or - for standard input (default: .env or benchmark/.env when present)', file: 'read' },
  'env-file': { type: 'string', describe: "The original's spelling of --dotenv (Node 22 reads this flag too: a file that does not exist stops Node before smi starts)" },
  model: { type: 'string', describe: 'Model id or models.yaml alias (overrides SMI_MODEL)' },
  'models-file': { type: 'string', describe: 'models.yaml with model aliases (default: ./models.yaml or ./benchmark/models.yaml when present)' },
  prices: { type: 'string', describe: 'prices.yaml: models: {<id>: {input, output, cached_input}} in $ per million tokens (no price: cost is null)' },
  'cache-dir': { type: 'string', describe: 'Response cache directory (default $SMI_CACHE_DIR or ~/.cache/smi/responses)' },
  cache: { type: 'boolean', default: true, describe: 'Answer repeated requests from the response cache (--no-cache: always ask the model)' },
  replay: { type: 'boolean', default: false, describe: 'Answer only from the response cache (no network; a request not cached fails)' },
  'replay-run': { type: 'string', describe: 'Answer only with the answers an earlier run directory recorded (no network, no key)' },
  'request-timeout-seconds': { type: 'number', default: 120, describe: 'Timeout of one HTTP attempt (retries and the per-package timeout come on top)' },
} as const;

/** The default response cache directory. */
export function defaultCacheDir(io: CliIo): string {
  return process.env.SMI_CACHE_DIR ? resolvePath(io, process.env.SMI_CACHE_DIR) : path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'smi', 'responses');
}

function parseEnvText(text: string): Record<string, string> {
  return parseEnv(text) as Record<string, string>;
}

/** The `.env` variables: the file given (it must exist when named explicitly), else `.env` or `benchmark/.env` when present. */
async function dotenvOf(io: CliIo, file: string, explicit: boolean): Promise<Record<string, string>> {
  if (file === '-') return parseEnvText((await readInput(io, '-', '--dotenv')).toString('utf8'));
  for (const candidate of explicit ? [file] : [file, 'benchmark/.env']) {
    const p = resolveInputPath(io, candidate);
    if (existsSync(p) && statSync(p).isFile()) return parseEnvText(readFileSync(p, 'utf8'));
  }
  if (explicit) throw new UsageError(`--dotenv ${file}: no such file`, 'FILE_NOT_FOUND');
  return {};
}

/** The configured model. */
export interface ModelSetup {
  config: ModelConfig;
  client: ModelClient;
  params: GenerateParams;
  price: ModelPrice | undefined;
  /** The `agent_effective_config` event (key redacted). */
  effective: Record<string, string | number | boolean | null>;
  warnings: string[];
  /** Retries so far (for progress). */
  retries: { count: number };
  /** Set to receive retry notices (the run's event log). */
  onRetry: { fn: ((fields: Record<string, string | number | null>) => void) | null };
}

/** Build the model of `real-openai-compatible` from the environment, the `.env` file and the flags. */
export async function setupModel(io: CliIo, args: ModelArgs): Promise<ModelSetup> {
  if (args.dotenv !== undefined && args['env-file'] !== undefined) throw new UsageError('give either --dotenv or --env-file', 'USAGE');
  const named = args.dotenv ?? args['env-file'];
  const dotenv = await dotenvOf(io, named ?? '.env', named !== undefined);
  const env: Record<string, string | undefined> = { ...process.env };
  // Replaying needs no key: nothing is sent.
  const replaying = args.replay || args['replay-run'] !== undefined;
  if (replaying && !env.SMI_API_KEY && !dotenv.SMI_API_KEY && !env.OPENAI_API_KEY && !env.OPENROUTER_API_KEY) env.SMI_API_KEY = 'replay';
  const modelsPath = args['models-file'] ?? ['models.yaml', 'benchmark/models.yaml'].find((f) => existsSync(resolvePath(io, f)));
  const models = modelsPath === undefined ? null : readModelsFile(resolveInputPath(io, modelsPath));
  if (args.model !== undefined) dotenv.SMI_MODEL = args.model;
  // Replaying a run: its model, endpoint and parameters (so the requests are the ones it made).
  const replayed = args['replay-run'] === undefined ? null : DiskRunStore.existing(resolveInputPath(io, args['replay-run']));
  const recorded = replayed?.readSpec()?.spec.model ?? null;
  if (recorded !== null) {
    if (args.model === undefined) dotenv.SMI_MODEL = recorded.id;
    env.SMI_API_BASE_URL = recorded.base_url;
  }
  const resolved = resolveModelConfig(env, dotenv);
  const config: ModelConfig = { ...resolved, model: resolveModelAlias(models, resolved.model) };
  const warnings: string[] = [];
  const retries = { count: 0 };
  const onRetry: ModelSetup['onRetry'] = { fn: null };
  const timeoutS = Math.max(args['request-timeout-seconds'], config.minRequestTimeoutS ?? 0);
  let client: ModelClient = new OpenAiCompatibleModel({
    apiKey: config.apiKey,
    baseUrl: config.baseUrl,
    model: config.model,
    requestTimeoutMs: timeoutS * 1000,
    retry: { maxAttempts: Math.max(1, config.maxRequestRetries) },
    onRetry: (n) => {
      retries.count++;
      onRetry.fn?.({ attempt: n.attempt, delay_ms: n.delayMs, kind: n.error.kind, status: n.error.details.status ?? null, error: n.error.message.slice(0, 300) });
    },
  });
  const cacheDir = args['cache-dir'] !== undefined ? resolvePath(io, args['cache-dir']) : defaultCacheDir(io);
  if (replayed !== null) client = new ReplayModel(runAnswers(replayed), config.model, config.baseUrl);
  else if (args.replay) client = new ReplayModel(new ResponseCache(cacheDir), config.model, config.baseUrl);
  else if (args.cache) client = new CachedModel(client, new ResponseCache(cacheDir));
  let price: ModelPrice | undefined;
  if (args.prices !== undefined) {
    const table = readPriceTable(resolveInputPath(io, args.prices));
    price = table[config.model] ?? (args.model !== undefined ? table[args.model] : undefined);
    if (price === undefined) warnings.push(`no price for ${config.model} in ${args.prices}: cost is reported as null`);
  } else warnings.push(`no --prices: the cost of ${config.model} is reported as null`);
  const effective = {
    provider: config.provider,
    base_url: config.baseUrl,
    model: config.model,
    api_key: replaying ? '<replay: not used>' : redactSecret(config.apiKey),
    temperature: config.temperature,
    max_tokens: config.maxTokens,
    cache: args['replay-run'] !== undefined ? `replay from the run ${args['replay-run']}` : args.replay ? `replay from ${cacheDir}` : args.cache ? cacheDir : 'off',
    request_timeout_seconds: timeoutS,
    max_attempts: Math.max(1, config.maxRequestRetries),
  };
  return { config, client, params: recorded?.params ?? generateParams(config), price, effective, warnings, retries, onRetry };
}

/** Options of where a run lives. */
export interface RunDirArgs {
  'log-dir': string;
  'run-id'?: string;
  'run-dir'?: string;
  log: boolean;
  resume: boolean;
}

/** The run's directory options as yargs declarations. */
export const RUN_DIR_OPTIONS = {
  'log-dir': { type: 'string', default: 'logs', describe: 'Where run directories are made (<log-dir>/<run-id>)' },
  'run-id': { type: 'string', describe: 'Name of the run directory (default <phase>_<UTC time>_pid<pid>_<hex>)' },
  'run-dir': { type: 'string', describe: 'The run directory itself (instead of --log-dir/--run-id)' },
  log: { type: 'boolean', default: true, describe: 'Keep a run directory (--no-log: nothing but --out is written, and the run cannot be resumed)' },
} as const;

/** The newest unfinished run of `benchmark` under `logDir`, or `null`. */
function newestUnfinished(logDir: string, benchmark: string): string | null {
  if (!existsSync(logDir)) return null;
  let best: { dir: string; at: string } | null = null;
  for (const name of readdirSync(logDir)) {
    const dir = path.join(logDir, name);
    const stateFile = path.join(dir, 'state.json');
    if (!existsSync(stateFile)) continue;
    try {
      const state = JSON.parse(readFileSync(stateFile, 'utf8')) as RunState;
      if (state.benchmark !== benchmark || state.status === 'success') continue;
      const at = state.sessions.at(-1)?.ended_at ?? '';
      if (best === null || at > best.at) best = { dir, at };
    } catch {
      // Not a run directory.
    }
  }
  return best?.dir ?? null;
}

/** Where this run lives, and its id. */
export function runStoreFor(io: CliIo, args: RunDirArgs, benchmark: string, prefix: string): { store: RunStore; runId: string; dir: string | null; picked: boolean } {
  if (!args.log) {
    if (args['run-dir'] !== undefined || args['run-id'] !== undefined) throw new UsageError('--no-log keeps no run directory: drop --run-dir / --run-id', 'USAGE');
    return { store: new MemoryRunStore(), runId: args['run-id'] ?? defaultRunId(prefix), dir: null, picked: false };
  }
  if (args['run-dir'] !== undefined) {
    const dir = resolvePath(io, args['run-dir']);
    return { store: DiskRunStore.at(dir), runId: path.basename(dir), dir, picked: false };
  }
  const logDir = resolvePath(io, args['log-dir']);
  if (args['run-id'] !== undefined) {
    const dir = path.join(logDir, safeFileName(args['run-id']));
    return { store: DiskRunStore.at(dir), runId: args['run-id'], dir, picked: false };
  }
  if (args.resume) {
    const found = newestUnfinished(logDir, benchmark);
    if (found !== null) return { store: DiskRunStore.at(found), runId: path.basename(found), dir: found, picked: true };
  }
  const runId = defaultRunId(prefix);
  const dir = path.join(logDir, safeFileName(runId));
  return { store: DiskRunStore.at(dir), runId, dir, picked: false };
}

/** The spend line of a run with model calls: calls, tokens, and the cost or why it is unknown. */
export function spentLine(t: RunTotals): string {
  if (t.calls === 0) return '';
  const cost =
    t.unknown_usage_calls > 0
      ? `cost unknown (${t.unknown_usage_calls} answer${t.unknown_usage_calls === 1 ? '' : 's'} gave no usage; tokens count the others)`
      : t.spent_usd === null
        ? 'cost unknown (no price)'
        : `$${t.spent_usd.toFixed(4)}`;
  return `spent: ${t.calls} calls (${t.cache_hits} from cache) over ${t.sessions} session${t.sessions === 1 ? '' : 's'}, ${t.input_tokens} + ${t.output_tokens} tokens, ${cost}\n`;
}
