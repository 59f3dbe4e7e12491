/**
 * The state file: a versioned JSON document holding everything an environment needs to
 * resume — settings, counters, and every object (dynamic-field children and published
 * packages included) as its exact Sui BCS. Files are written to a temporary name and
 * renamed, so a crash never leaves a half-written state behind.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress, errorMessage } from '@smi/bytecode';
import { decodeBcs, encodeBcs, objectIdOf, objectTypeTag, type SuiObject, suiBcs } from '@smi/ptb';
import { z } from 'zod';
import { SimulationEnvironmentError } from './errors.js';

/** `format` of a state file. */
export const STATE_FORMAT = 'smi-simulation-state';
/** Current `version` of the state file format. */
export const STATE_VERSION = 1;

const decimal = z.string().regex(/^[0-9]+$/, 'a decimal integer string');

const StateFileSchema = z.object({
  format: z.literal(STATE_FORMAT),
  version: z.literal(STATE_VERSION),
  protocolVersion: z.number().int().nonnegative(),
  config: z.object({
    sender: z.string(),
    epoch: decimal,
    clockMs: decimal,
    randomSeed: z.string().regex(/^[0-9a-f]{64}$/, '32 bytes of hex'),
    gasPrice: decimal,
    gasBudget: decimal,
    checks: z.enum(['strict', 'relaxed']),
  }),
  counters: z.object({ tx: decimal, system: decimal, created: decimal, randomRound: decimal }),
  objects: z.array(z.object({ id: z.string(), type: z.string().nullable().optional(), bcs: z.string() })),
});

/** The state file as JSON. */
export type StateFile = z.infer<typeof StateFileSchema>;

/** The decoded content of a state file. */
export interface StateSnapshot {
  protocolVersion: number;
  config: {
    sender: string;
    epoch: bigint;
    clockMs: bigint;
    randomSeed: Uint8Array;
    gasPrice: bigint;
    gasBudget: bigint;
    checks: 'strict' | 'relaxed';
  };
  counters: { tx: bigint; system: bigint; created: bigint; randomRound: bigint };
  objects: [string, SuiObject][];
}

/** Encode a snapshot as the state file's JSON. */
export function encodeState(s: StateSnapshot): StateFile {
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    protocolVersion: s.protocolVersion,
    config: {
      sender: s.config.sender,
      epoch: s.config.epoch.toString(),
      clockMs: s.config.clockMs.toString(),
      randomSeed: Buffer.from(s.config.randomSeed).toString('hex'),
      gasPrice: s.config.gasPrice.toString(),
      gasBudget: s.config.gasBudget.toString(),
      checks: s.config.checks,
    },
    counters: {
      tx: s.counters.tx.toString(),
      system: s.counters.system.toString(),
      created: s.counters.created.toString(),
      randomRound: s.counters.randomRound.toString(),
    },
    objects: s.objects.map(([id, o]) => ({
      id,
      type: o.data.$kind === 'Move' ? objectTypeTag(o) : null,
      bcs: Buffer.from(encodeBcs(suiBcs.Object, o)).toString('base64'),
    })),
  };
}

/** Decode (and check) the state file's JSON. */
export function decodeState(json: unknown, source = 'state'): StateSnapshot {
  const parsed = StateFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SimulationEnvironmentError('INVALID_STATE_FILE', `${source}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const f = parsed.data;
  const objects: [string, SuiObject][] = f.objects.map((entry, i) => {
    let o: SuiObject;
    try {
      o = decodeBcs(suiBcs.Object, Uint8Array.from(Buffer.from(entry.bcs, 'base64')));
    } catch (e) {
      throw new SimulationEnvironmentError('INVALID_STATE_FILE', `${source}: objects[${i}] (${entry.id}) is not a Sui object: ${errorMessage(e)}`);
    }
    let id: string;
    try {
      id = canonicalAddress(entry.id);
    } catch {
      throw new SimulationEnvironmentError('INVALID_STATE_FILE', `${source}: objects[${i}] has a bad id ${entry.id}`);
    }
    if (objectIdOf(o) !== id) throw new SimulationEnvironmentError('INVALID_STATE_FILE', `${source}: objects[${i}] says ${id} but holds ${objectIdOf(o)}`);
    return [id, o];
  });
  let sender: string;
  try {
    sender = canonicalAddress(f.config.sender);
  } catch {
    throw new SimulationEnvironmentError('INVALID_STATE_FILE', `${source}: config.sender is not an address`);
  }
  return {
    protocolVersion: f.protocolVersion,
    config: {
      sender,
      epoch: BigInt(f.config.epoch),
      clockMs: BigInt(f.config.clockMs),
      randomSeed: Uint8Array.from(Buffer.from(f.config.randomSeed, 'hex')),
      gasPrice: BigInt(f.config.gasPrice),
      gasBudget: BigInt(f.config.gasBudget),
      checks: f.config.checks,
    },
    counters: {
      tx: BigInt(f.counters.tx),
      system: BigInt(f.counters.system),
      created: BigInt(f.counters.created),
      randomRound: BigInt(f.counters.randomRound),
    },
    objects,
  };
}

/** Write `text` to `file` atomically: a temporary file in the same folder, flushed, then renamed (missing folders are made). */
export function writeFileAtomic(file: string, text: string): void {
  // As the original's atomic writes: the parent folders are made when missing.
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (e) {
    if (existsSync(tmp)) unlinkSync(tmp);
    throw e;
  }
}

/** Read a state file. */
export function readStateFile(file: string): StateSnapshot {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SimulationEnvironmentError('INVALID_STATE_FILE', `${file}: cannot read: ${errorMessage(e)}`, { path: file });
  }
  return parseStateFile(text, file);
}

/** Parse (and check) a state file's text, read already; `source` names it in errors. */
export function parseStateFile(text: string, source: string): StateSnapshot {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new SimulationEnvironmentError('INVALID_STATE_FILE', `${source}: not JSON: ${errorMessage(e)}`, { path: source });
  }
  return decodeState(json, source);
}
