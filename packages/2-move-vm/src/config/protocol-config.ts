/**
 * Sui `ProtocolConfig` snapshots: a strict reader for the insta YAML files
 * `sui_protocol_config__test__Mainnet_version_N.snap` (upstream
 * `crates/sui-protocol-config/src/snapshots`), and typed access to their values.
 *
 * The reader accepts exactly the YAML subset those 135 files use, and rejects anything else
 * with a {@link ProtocolConfigError} naming file and line (no silent guesses):
 *
 * - a header between two `---` lines (`source: ...`, `expression: "..."`), then the body;
 * - block mappings `key: value` / `key:` + an indented block, keys plain or double-quoted;
 * - block sequences `- item`, including compact forms `- key: value` (a mapping item whose
 *   further keys align with the first) and `- - x` (a sequence inside a sequence), at the
 *   parent's indentation or deeper;
 * - scalars: decimal integers, `true`/`false`, `~`/`null`, double- or single-quoted strings,
 *   plain strings (`ByGasPrice`, hex digests), and the empty flow collections `{}` / `[]`;
 * - blank lines (ignored).
 *
 * Integers: values are `u64` upstream and one of them (`u64::MAX` =
 * 18446744073709551615) exceeds 2^53. An integer is a `number` when
 * `Number.isSafeInteger` holds and a `bigint` otherwise, so nothing is rounded; the typed
 * accessors {@link ProtocolConfig.u64} (always `bigint`) and {@link ProtocolConfig.int}
 * (a `number`, or an error when unsafe) hide the split.
 *
 * Rejected on purpose (serde_yaml quotes such strings, so meeting one unquoted means the
 * input is not what we think): floats, hex/octal/leading-zero integers, YAML 1.1 booleans
 * (`yes`, `True`...), anchors, tags, comments, flow collections other than `{}`/`[]`,
 * block scalars, tabs in indentation, duplicate keys, a `key:` with no value.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SmiError } from '@smi/bytecode';

/** A scalar of the snapshot YAML. */
export type ConfigScalar = null | boolean | number | bigint | string;

/** Any value of the snapshot YAML (scalars, sequences, mappings). */
export type ConfigValue = ConfigScalar | readonly ConfigValue[] | ConfigMap;

/** A mapping of the snapshot YAML. Keys keep the file's order. */
export interface ConfigMap {
  readonly [key: string]: ConfigValue;
}

/** Stable codes of {@link ProtocolConfigError}. */
export type ProtocolConfigErrorCode = 'PROTOCOL_CONFIG_NOT_FOUND' | 'PROTOCOL_CONFIG_PARSE_ERROR' | 'PROTOCOL_CONFIG_MISSING_KEY' | 'PROTOCOL_CONFIG_TYPE_ERROR';

/** Error of this module: a missing snapshot, a malformed one, or a bad typed access. */
export class ProtocolConfigError extends SmiError<ProtocolConfigErrorCode> {
  override readonly name = 'ProtocolConfigError';
  /** File at fault, when known. */
  readonly file: string | undefined;
  /** 1-based line at fault, for parse errors. */
  readonly line: number | undefined;
  /** Config key at fault, for accessor errors. */
  readonly key: string | undefined;

  constructor(code: ProtocolConfigErrorCode, message: string, opts: { file?: string; line?: number; key?: string; cause?: unknown } = {}) {
    const where = opts.file === undefined ? '' : opts.line === undefined ? `${opts.file}: ` : `${opts.file}:${opts.line}: `;
    super(code, `${where}${message}`, { cause: opts.cause });
    this.file = opts.file;
    this.line = opts.line;
    this.key = opts.key;
  }
}

/** Options of {@link parseProtocolConfigSnap}. */
export interface ParseSnapOptions {
  /** File name used in error messages (and kept as {@link ProtocolConfig.file}). */
  file?: string;
}

/**
 * One protocol version's configuration: `version`, the `feature_flags` block, every other
 * top-level key in `values` (a key that upstream holds as `None` is simply absent).
 */
export class ProtocolConfig {
  /** Protocol version (`version:`). */
  readonly version: number;
  /** The `feature_flags:` block; mostly booleans, a few enums as strings (`ByGasPrice`). */
  readonly featureFlags: ConfigMap;
  /** Every top-level key except `version` and `feature_flags`. */
  readonly values: ConfigMap;
  /** The insta header (`source`, `expression`). */
  readonly header: ConfigMap;
  /** The file it was read from, when known. */
  readonly file: string | undefined;

  constructor(init: { version: number; featureFlags: ConfigMap; values: ConfigMap; header?: ConfigMap; file?: string }) {
    this.version = init.version;
    this.featureFlags = init.featureFlags;
    this.values = init.values;
    this.header = init.header ?? Object.freeze({});
    this.file = init.file;
    Object.freeze(this);
  }

  /** `true` when `key` is present in {@link values}. */
  has(key: string): boolean {
    return Object.hasOwn(this.values, key);
  }

  /** Raw value of `key`, or `undefined` when absent. */
  get(key: string): ConfigValue | undefined {
    return this.has(key) ? this.values[key] : undefined;
  }

  /** Integer value of `key` as a `bigint` (any `u64`). Throws when absent or not an integer. */
  u64(key: string): bigint {
    const v = this.optionalU64(key);
    if (v === undefined) throw this.missing(key);
    return v;
  }

  /** Like {@link u64}, but `undefined` when the key is absent (upstream `None`). */
  optionalU64(key: string): bigint | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    if (typeof v === 'number') return BigInt(v);
    if (typeof v === 'bigint') return v;
    throw this.typeError(key, 'an integer', v);
  }

  /** Integer value of `key` as a safe `number`. Throws when absent, not an integer, or above 2^53. */
  int(key: string): number {
    const v = this.optionalInt(key);
    if (v === undefined) throw this.missing(key);
    return v;
  }

  /** Like {@link int}, but `undefined` when the key is absent. */
  optionalInt(key: string): number | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    if (typeof v === 'number') return v;
    if (typeof v === 'bigint') throw this.typeError(key, 'an integer below 2^53 (use u64())', v);
    throw this.typeError(key, 'an integer', v);
  }

  /** Boolean value of `key`. Throws when absent or not a boolean. */
  bool(key: string): boolean {
    const v = this.get(key);
    if (v === undefined) throw this.missing(key);
    if (typeof v !== 'boolean') throw this.typeError(key, 'a boolean', v);
    return v;
  }

  /** String value of `key`. Throws when absent or not a string. */
  str(key: string): string {
    const v = this.get(key);
    if (v === undefined) throw this.missing(key);
    if (typeof v !== 'string') throw this.typeError(key, 'a string', v);
    return v;
  }

  /**
   * Boolean feature flag `name`. An absent flag is `false` (upstream flags default to
   * `false` and older snapshots omit newer flags). A non-boolean flag is a type error.
   */
  flag(name: string): boolean {
    if (!Object.hasOwn(this.featureFlags, name)) return false;
    const v = this.featureFlags[name];
    if (typeof v !== 'boolean') throw this.typeError(`feature_flags.${name}`, 'a boolean', v);
    return v;
  }

  /** Raw feature-flag value (booleans, or enum names such as `ByGasPrice`), `undefined` when absent. */
  flagValue(name: string): ConfigValue | undefined {
    return Object.hasOwn(this.featureFlags, name) ? this.featureFlags[name] : undefined;
  }

  private missing(key: string): ProtocolConfigError {
    return new ProtocolConfigError('PROTOCOL_CONFIG_MISSING_KEY', `protocol version ${this.version} has no \`${key}\``, {
      key,
      ...(this.file === undefined ? {} : { file: this.file }),
    });
  }

  private typeError(key: string, expected: string, got: ConfigValue): ProtocolConfigError {
    const shown = typeof got === 'bigint' ? `${got}` : JSON.stringify(got);
    return new ProtocolConfigError('PROTOCOL_CONFIG_TYPE_ERROR', `\`${key}\` should be ${expected}, got ${shown}`, {
      key,
      ...(this.file === undefined ? {} : { file: this.file }),
    });
  }
}

// ---------------------------------------------------------------------------------------
// YAML subset
// ---------------------------------------------------------------------------------------

interface Line {
  indent: number;
  text: string;
  /** 1-based line number in the file. */
  no: number;
}

class Reader {
  private pos = 0;
  constructor(
    private readonly lines: Line[],
    private readonly file: string | undefined,
  ) {}

  peek(): Line | undefined {
    return this.lines[this.pos];
  }

  next(): void {
    this.pos++;
  }

  /** Replace the current line by the rest of a `- ` item, placed at its own column. */
  replace(line: Line): void {
    this.lines[this.pos] = line;
  }

  fail(message: string, line?: Line | number): ProtocolConfigError {
    const no = typeof line === 'number' ? line : (line ?? this.peek())?.no;
    return new ProtocolConfigError('PROTOCOL_CONFIG_PARSE_ERROR', message, {
      ...(this.file === undefined ? {} : { file: this.file }),
      ...(no === undefined ? {} : { line: no }),
    });
  }
}

const SEQ_ITEM = /^-( +|$)/;
const INT = /^-?(0|[1-9][0-9]*)$/;
const FLOATISH = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const AMBIGUOUS = new Set([
  'True',
  'TRUE',
  'False',
  'FALSE',
  'Null',
  'NULL',
  'yes',
  'Yes',
  'YES',
  'no',
  'No',
  'NO',
  'on',
  'On',
  'ON',
  'off',
  'Off',
  'OFF',
  'y',
  'Y',
  'n',
  'N',
  '.inf',
  '.Inf',
  '-.inf',
  '.nan',
  '.NaN',
]);
/** Characters that may not start a plain scalar or key in our subset. */
const INDICATORS = new Set(['-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`']);

function isSeqItem(text: string): boolean {
  return SEQ_ITEM.test(text);
}

/** Parse a double-quoted string at the start of `s`; returns the value and the rest. */
function readDoubleQuoted(r: Reader, s: string, line: Line): { value: string; rest: string } {
  let out = '';
  let i = 1;
  for (;;) {
    if (i >= s.length) throw r.fail('unterminated double-quoted string', line);
    const c = s[i];
    if (c === '"') return { value: out, rest: s.slice(i + 1) };
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const e = s[i + 1];
    const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', n: '\n', t: '\t', r: '\r', '0': '\0', b: '\b', f: '\f', ' ': ' ' };
    if (e !== undefined && simple[e] !== undefined) {
      out += simple[e];
      i += 2;
      continue;
    }
    const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    const hex = s.slice(i + 2, i + 2 + width);
    if (width === 0 || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) throw r.fail(`unsupported escape \\${e ?? ''} in string`, line);
    out += String.fromCodePoint(parseInt(hex, 16));
    i += 2 + width;
  }
}

function readSingleQuoted(r: Reader, s: string, line: Line): { value: string; rest: string } {
  let out = '';
  let i = 1;
  for (;;) {
    if (i >= s.length) throw r.fail('unterminated single-quoted string', line);
    if (s[i] === "'") {
      if (s[i + 1] === "'") {
        out += "'";
        i += 2;
        continue;
      }
      return { value: out, rest: s.slice(i + 1) };
    }
    out += s[i];
    i++;
  }
}

/** Parse a scalar (or `{}` / `[]`) that fills `text` entirely. */
function parseScalar(r: Reader, text: string, line: Line): ConfigValue {
  if (text.startsWith('"') || text.startsWith("'")) {
    const q = text.startsWith('"') ? readDoubleQuoted(r, text, line) : readSingleQuoted(r, text, line);
    if (q.rest !== '') throw r.fail(`unexpected text after quoted string: ${JSON.stringify(q.rest)}`, line);
    return q.value;
  }
  if (text === '{}') return Object.freeze({});
  if (text === '[]') return Object.freeze([]);
  if (text === '~' || text === 'null') return null;
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (INT.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
  if (AMBIGUOUS.has(text)) throw r.fail(`ambiguous plain scalar ${JSON.stringify(text)} (quote it)`, line);
  // Floats, `+1`, leading zeros (`0123`) and `0x`/`0o`/`0b` literals: never unquoted in our files.
  if (FLOATISH.test(text) || /^[-+]?0[xXoObB][0-9a-fA-F]+$/.test(text)) {
    throw r.fail(`unsupported numeric scalar ${JSON.stringify(text)}`, line);
  }
  const first = text[0];
  if (first === undefined || INDICATORS.has(first)) throw r.fail(`unsupported YAML construct ${JSON.stringify(text)}`, line);
  if (/: |:$| #|\t/.test(text)) throw r.fail(`unsupported plain scalar ${JSON.stringify(text)}`, line);
  return text;
}

/** Split `key: value` / `key:`; returns `undefined` when the line is not a mapping entry. */
function splitKey(r: Reader, line: Line): { key: string; value: string | undefined } | undefined {
  const t = line.text;
  let key: string;
  let rest: string;
  if (t.startsWith('"')) {
    const q = readDoubleQuoted(r, t, line);
    key = q.value;
    rest = q.rest;
    if (!rest.startsWith(':')) return undefined;
    rest = rest.slice(1);
  } else {
    const m = /^([^\s:][^:]*?):( |$)/.exec(t);
    if (m === null) return undefined;
    key = m[1];
    if (INDICATORS.has(key[0]) || /\s#/.test(key)) throw r.fail(`unsupported mapping key ${JSON.stringify(key)}`, line);
    rest = t.slice(key.length + 1);
  }
  if (rest === '') return { key, value: undefined };
  if (!rest.startsWith(' ')) return undefined;
  const value = rest.replace(/^ +/, '');
  if (value === '') return { key, value: undefined };
  return { key, value };
}

function parseNode(r: Reader, indent: number): ConfigValue {
  const line = r.peek();
  if (line === undefined) throw r.fail('unexpected end of file');
  if (line.indent !== indent) throw r.fail(`expected indentation ${indent}, found ${line.indent}`, line);
  return isSeqItem(line.text) ? parseSequence(r, indent) : parseMapping(r, indent);
}

function parseSequence(r: Reader, indent: number): readonly ConfigValue[] {
  const items: ConfigValue[] = [];
  for (let line = r.peek(); line !== undefined && line.indent === indent && isSeqItem(line.text); line = r.peek()) {
    const rest = line.text.replace(SEQ_ITEM, '');
    if (rest === '') {
      r.next();
      const inner = r.peek();
      if (inner === undefined || inner.indent <= indent) throw r.fail('empty sequence item', line);
      items.push(parseNode(r, inner.indent));
      continue;
    }
    const column = indent + (line.text.length - rest.length);
    const virtual: Line = { indent: column, text: rest, no: line.no };
    if (isSeqItem(rest) || splitKey(r, virtual) !== undefined) {
      r.replace(virtual);
      items.push(parseNode(r, column));
    } else {
      items.push(parseScalar(r, rest, line));
      r.next();
    }
  }
  const after = r.peek();
  if (after !== undefined && after.indent > indent) throw r.fail(`unexpected indentation ${after.indent}`, after);
  return Object.freeze(items);
}

function parseMapping(r: Reader, indent: number): ConfigMap {
  const out: Record<string, ConfigValue> = {};
  for (let line = r.peek(); line !== undefined && line.indent === indent && !isSeqItem(line.text); line = r.peek()) {
    const kv = splitKey(r, line);
    if (kv === undefined) throw r.fail(`expected \`key: value\`, found ${JSON.stringify(line.text)}`, line);
    if (kv.key === '__proto__') throw r.fail('key `__proto__` is not allowed', line);
    if (Object.hasOwn(out, kv.key)) throw r.fail(`duplicate key \`${kv.key}\``, line);
    r.next();
    if (kv.value !== undefined) {
      out[kv.key] = parseScalar(r, kv.value, line);
      continue;
    }
    const child = r.peek();
    const opensBlock = child !== undefined && (child.indent > indent || (child.indent === indent && isSeqItem(child.text)));
    if (!opensBlock) throw r.fail(`key \`${kv.key}\` has no value`, line);
    out[kv.key] = parseNode(r, child.indent);
  }
  const after = r.peek();
  if (after !== undefined && after.indent > indent) throw r.fail(`unexpected indentation ${after.indent}`, after);
  return Object.freeze(out);
}

function toLines(r: { fail: (m: string, l?: number) => ProtocolConfigError }, raw: string[], firstNo: number): Line[] {
  const out: Line[] = [];
  raw.forEach((text0, i) => {
    const text = text0.endsWith('\r') ? text0.slice(0, -1) : text0;
    const no = firstNo + i;
    if (text.trim() === '') return;
    const m = /^( *)(.*)$/.exec(text) as RegExpExecArray;
    if (m[2].startsWith('\t')) throw r.fail('tab in indentation', no);
    if (m[2].startsWith('#')) throw r.fail('comments are not supported', no);
    if (/\s+$/.test(m[2])) throw r.fail('trailing whitespace', no);
    out.push({ indent: m[1].length, text: m[2], no });
  });
  return out;
}

/**
 * Parse the whole snapshot into `{ header, body }` maps (no ProtocolConfig-specific
 * checks). Exposed for other insta YAML snapshots with the same shape.
 */
export function parseSnapYaml(text: string, options: ParseSnapOptions = {}): { header: ConfigMap; body: ConfigMap } {
  const file = options.file;
  const raw = text.split('\n');
  const bare = new Reader([], file);
  const first = raw.findIndex((l) => l.trim() !== '');
  if (first < 0 || raw[first].replace(/\r$/, '') !== '---') throw bare.fail('expected the insta header to start with `---`', first < 0 ? 1 : first + 1);
  const close = raw.findIndex((l, i) => i > first && l.replace(/\r$/, '') === '---');
  if (close < 0) throw bare.fail('the insta header is not closed by `---`', first + 1);
  const headerReader = new Reader(toLines(bare, raw.slice(first + 1, close), first + 2), file);
  const header = headerReader.peek() === undefined ? Object.freeze({}) : parseMapping(headerReader, 0);
  if (headerReader.peek() !== undefined) throw headerReader.fail('unexpected header line');
  const bodyReader = new Reader(toLines(bare, raw.slice(close + 1), close + 2), file);
  const start = bodyReader.peek();
  if (start === undefined) throw bare.fail('empty body', close + 2);
  if (start.indent !== 0 || isSeqItem(start.text)) throw bodyReader.fail('the body must be a mapping at column 0', start);
  const body = parseMapping(bodyReader, 0);
  const left = bodyReader.peek();
  if (left !== undefined) throw bodyReader.fail(`unexpected line ${JSON.stringify(left.text)}`, left);
  return { header, body };
}

/**
 * Parse one `sui_protocol_config__test__*_version_N.snap` file. The body must hold an
 * integer `version` and a `feature_flags` mapping (possibly `{}`).
 */
export function parseProtocolConfigSnap(text: string, options: ParseSnapOptions = {}): ProtocolConfig {
  const { header, body } = parseSnapYaml(text, options);
  const fail = (message: string): ProtocolConfigError => new ProtocolConfigError('PROTOCOL_CONFIG_PARSE_ERROR', message, options.file === undefined ? {} : { file: options.file });
  const version = body.version;
  if (typeof version !== 'number' || version < 0) throw fail('`version` must be a non-negative integer');
  const flags = body.feature_flags;
  if (flags === undefined) throw fail('missing `feature_flags`');
  if (flags === null || typeof flags !== 'object' || Array.isArray(flags)) throw fail('`feature_flags` must be a mapping');
  const values: Record<string, ConfigValue> = {};
  for (const [k, v] of Object.entries(body)) if (k !== 'version' && k !== 'feature_flags') values[k] = v;
  return new ProtocolConfig({
    version,
    featureFlags: flags as ConfigMap,
    values: Object.freeze(values),
    header,
    ...(options.file === undefined ? {} : { file: options.file }),
  });
}

// ---------------------------------------------------------------------------------------
// Loading from the fixtures folder
// ---------------------------------------------------------------------------------------

const SNAP_NAME = /^sui_protocol_config__test__Mainnet_version_(\d+)\.snap$/;

/**
 * Folder holding the mainnet snapshots, given the fixtures root (the folder with
 * `fixtures/`), the `fixtures/` folder itself, or the `protocol-config/` folder.
 */
export function protocolConfigDir(fixturesRoot: string): string {
  const candidates = [path.join(fixturesRoot, 'fixtures', 'protocol-config'), path.join(fixturesRoot, 'protocol-config'), fixturesRoot];
  for (const dir of candidates) {
    if (existsSync(dir) && readdirSync(dir).some((n) => SNAP_NAME.test(n))) return dir;
  }
  throw new ProtocolConfigError('PROTOCOL_CONFIG_NOT_FOUND', `no protocol-config snapshots under ${fixturesRoot} (looked in ${candidates.join(', ')})`, {
    file: fixturesRoot,
  });
}

/** Mainnet protocol versions with a snapshot, ascending. */
export function availableProtocolVersions(fixturesRoot: string): number[] {
  const dir = protocolConfigDir(fixturesRoot);
  const versions: number[] = [];
  for (const name of readdirSync(dir)) {
    const m = SNAP_NAME.exec(name);
    if (m !== null) versions.push(Number(m[1]));
  }
  return versions.sort((a, b) => a - b);
}

const cache = new Map<string, ProtocolConfig>();

/**
 * Load the mainnet config of `version` (default: the highest version present). Parsed
 * configs are immutable and cached per file.
 */
export function loadProtocolConfig(fixturesRoot: string, version?: number): ProtocolConfig {
  const versions = availableProtocolVersions(fixturesRoot);
  const wanted = version ?? versions[versions.length - 1];
  const dir = protocolConfigDir(fixturesRoot);
  const file = path.join(dir, `sui_protocol_config__test__Mainnet_version_${wanted}.snap`);
  if (wanted === undefined || !versions.includes(wanted)) {
    const range = versions.length === 0 ? 'none' : `${versions[0]}..${versions[versions.length - 1]}`;
    throw new ProtocolConfigError('PROTOCOL_CONFIG_NOT_FOUND', `no mainnet snapshot for protocol version ${String(version)} (available: ${range})`, { file });
  }
  const hit = cache.get(file);
  if (hit !== undefined) return hit;
  const cfg = parseProtocolConfigSnap(readFileSync(file, 'utf8'), { file });
  if (cfg.version !== wanted) {
    throw new ProtocolConfigError('PROTOCOL_CONFIG_PARSE_ERROR', `file says version ${cfg.version}, name says ${wanted}`, { file });
  }
  cache.set(file, cfg);
  return cfg;
}
