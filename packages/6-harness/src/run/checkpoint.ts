/**
 * The original's run JSON files ("checkpoints"): written as `json.dumps(indent=2,
 * sort_keys=True)` plus a newline, with `_checksum` = the first 8 hex of SHA-256 of the
 * compact sorted JSON computed before the key is added; read back by verifying that
 * checksum (a file without one is accepted, as the original did) and the schema's
 * required fields. Files the original wrote load and verify here, and the reverse.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parsePyJson, type PyJson, pyChecksum, pyDumps, PyJsonError } from '../py-json.js';
import { SmiError } from '@smi/bytecode';

/** Why a run JSON file cannot be used. */
export class CheckpointError extends SmiError<'CHECKPOINT_NOT_FOUND' | 'CHECKPOINT_UNREADABLE' | 'CHECKSUM_MISMATCH' | 'CHECKPOINT_INVALID' | 'CHECKPOINT_INCOMPATIBLE'> {
  override readonly name = 'CheckpointError';
  constructor(code: 'CHECKPOINT_NOT_FOUND' | 'CHECKPOINT_UNREADABLE' | 'CHECKSUM_MISMATCH' | 'CHECKPOINT_INVALID' | 'CHECKPOINT_INCOMPATIBLE', message: string) {
    super(code, message);
  }
}

/** A run JSON object. */
export type RunJson = { [key: string]: PyJson };

/** The text of a run JSON file: `_checksum` added, pretty, sorted, newline-terminated. */
export function renderRunJson(data: RunJson): string {
  const { _checksum: _old, ...rest } = data;
  return pyDumps({ ...rest, _checksum: pyChecksum(rest) }, 2) + '\n';
}

function typeName(v: PyJson | undefined): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) return 'int';
  if (typeof v === 'object' && 'value' in v && typeof (v as { value: unknown }).value === 'number') return 'float';
  if (typeof v === 'object') return 'dict';
  return typeof v === 'string' ? 'str' : typeof v === 'boolean' ? 'bool' : 'float';
}

function isInt(v: PyJson | undefined): boolean {
  return typeName(v) === 'int';
}

/** Phase I rows (truth/predicted counts, P/R/F1 scores) or Phase II rows (targets and hits). */
export type RunPhase = 1 | 2;

/** The original's `validate_phase1_run_json` / `validate_phase2_run_json`: required fields and types (additive fields allowed). */
export function validateRunJson(data: RunJson, phase: RunPhase): void {
  const required: [string, string][] = [
    ['schema_version', 'int'],
    ['started_at_unix_seconds', 'int'],
    ['finished_at_unix_seconds', 'int'],
    ['corpus_root_name', 'str'],
    ['samples', 'int'],
    ['seed', 'int'],
    ['agent', 'str'],
    ...(phase === 2
      ? ([
          ['rpc_url', 'str'],
          ['sender', 'str'],
          ['gas_budget', 'int'],
        ] as [string, string][])
      : []),
    ['aggregate', 'dict'],
    ['packages', 'list'],
  ];
  const bad = (msg: string): never => {
    throw new CheckpointError('CHECKPOINT_INVALID', msg);
  };
  for (const [field, type] of required) {
    if (!(field in data)) bad(`missing required field: ${field}`);
    if (typeName(data[field]) !== type) bad(`field ${field}: expected ${type}, got ${typeName(data[field])}`);
  }
  if (data.schema_version !== 1 && data.schema_version !== 2) bad(`unsupported schema_version: ${String(data.schema_version)} (expected 1 or 2)`);
  const scoreKeys = phase === 1 ? ['tp', 'fp', 'fn', 'precision', 'recall', 'f1', 'missing_sample', 'extra_sample'] : ['targets', 'created_distinct', 'created_hits', 'missing'];
  (data.packages as PyJson[]).forEach((pkg, i) => {
    if (pkg === null || typeof pkg !== 'object' || Array.isArray(pkg) || typeName(pkg) !== 'dict') return bad(`packages[${i}]: must be a dict`);
    const row = pkg as { [key: string]: PyJson };
    if (typeof row.package_id !== 'string') bad(`packages[${i}]: missing required field 'package_id' (a string)`);
    if (phase === 1) {
      for (const k of ['truth_key_types', 'predicted_key_types']) if (!isInt(row[k])) bad(`packages[${i}].${k}: must be an int`);
    }
    if (typeName(row.score) !== 'dict') bad(`packages[${i}]: missing required field 'score' (a dict)`);
    const score = row.score as { [key: string]: PyJson };
    const missing = scoreKeys.filter((k) => !(k in score));
    if (missing.length > 0) bad(`packages[${i}].score: missing required keys: ${missing.join(', ')}`);
    if (phase === 1) {
      for (const k of ['tp', 'fp', 'fn']) if (!isInt(score[k])) bad(`packages[${i}].score.${k}: must be an int`);
      for (const k of ['precision', 'recall', 'f1']) if (!['int', 'float'].includes(typeName(score[k]))) bad(`packages[${i}].score.${k}: must be a number`);
      for (const k of ['missing_sample', 'extra_sample']) if (!Array.isArray(score[k])) bad(`packages[${i}].score.${k}: must be a list`);
    } else if (!isInt(score.targets)) bad(`packages[${i}].score.targets: must be an int`);
  });
}

/** How to read a run JSON file. */
export interface LoadOptions {
  /** Which validator (default 1). */
  phase?: RunPhase;
  /** Skip the checksum (the original's golden files carry placeholder checksums). */
  ignoreChecksum?: boolean;
}

/** Parse and verify a run JSON text (`file` names it in errors). */
export function parseRunJson(text: string, file: string, options: LoadOptions = {}): RunJson {
  let v: PyJson;
  try {
    v = parsePyJson(text);
  } catch (e) {
    throw new CheckpointError('CHECKPOINT_UNREADABLE', `${file}: not valid JSON (${e instanceof PyJsonError ? e.message : String(e)}). Fix: remove the file or restore it from a backup.`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v) || typeName(v) !== 'dict') throw new CheckpointError('CHECKPOINT_UNREADABLE', `${file}: expected a JSON object`);
  const data = v as RunJson;
  const stated = data._checksum;
  if (stated !== undefined && options.ignoreChecksum !== true) {
    const actual = pyChecksum(data);
    if (stated !== actual) {
      throw new CheckpointError(
        'CHECKSUM_MISMATCH',
        `${file}: checksum mismatch (file says ${JSON.stringify(stated)}, content gives ${JSON.stringify(actual)}): the file was changed or damaged. Fix: remove the file and run again.`,
      );
    }
  }
  const { _checksum: _c, ...rest } = data;
  try {
    validateRunJson(rest, options.phase ?? 1);
  } catch (e) {
    if (e instanceof CheckpointError) throw new CheckpointError('CHECKPOINT_INVALID', `${file}: ${e.message}`);
    throw e;
  }
  return rest;
}

/** Load and verify a run JSON file. */
export function loadRunJson(file: string, options: LoadOptions = {}): RunJson {
  if (!existsSync(file)) throw new CheckpointError('CHECKPOINT_NOT_FOUND', `${file}: no such run file (run without --resume to start one, or check the path)`);
  return parseRunJson(readFileSync(file, 'utf8'), file, options);
}

/**
 * The original's `validate_checkpoint_compatibility`: `schema_version` and the critical
 * fields present in `expected` (agent, seed, simulation mode) must match.
 */
export function checkCompatibility(data: RunJson, expected: Record<string, string | number | bigint>): void {
  for (const [k, want] of Object.entries(expected)) {
    const have = data[k];
    const same = typeof want === 'bigint' || typeof want === 'number' ? (typeof have === 'number' || typeof have === 'bigint') && BigInt(have) === BigInt(want) : have === want;
    if (!same)
      throw new CheckpointError(
        'CHECKPOINT_INCOMPATIBLE',
        `the run file was written with ${k}=${String(have)}, this run has ${k}=${String(want)}: resume with the same settings, or write to another file`,
      );
  }
}
