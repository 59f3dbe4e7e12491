/**
 * JSON as the original Python harness wrote it, so its files checksum the same here:
 * `json.dumps(..., sort_keys=True)` with `ensure_ascii`, floats written as Python's `repr`
 * (`1.0`, `1e-05`), compact (`separators=(",", ":")`) for checksums and indented by 2 for
 * files. A float read from a file keeps its text, so it is written back the same.
 */
import { createHash } from 'node:crypto';
import { SmiError, type SmiErrorOptions } from '@smi/bytecode';

/** A float (Python `float`): written as Python's `repr`, or as the text it was read from. */
export class PyFloat {
  constructor(
    readonly value: number,
    readonly text?: string,
  ) {}

  toJSON(): number {
    return this.value;
  }
}

/** A JSON value with Python's int/float distinction. */
export type PyJson = null | boolean | number | bigint | PyFloat | string | PyJson[] | { [key: string]: PyJson };

/** `x` as a Python float. */
export function pyFloat(x: number): PyFloat {
  return new PyFloat(x);
}

/** Python's `repr` of a float. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // The shortest digits that round-trip, and their decimal exponent.
  const [mantissa, expText] = Math.abs(x).toExponential().split('e');
  const exp = Number(expText);
  const digits = mantissa.replace('.', '');
  const sign = x < 0 ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const m = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${intPart}.${frac === '' ? '0' : frac}`;
}

/** A string as Python's `json.dumps` writes it (`ensure_ascii`). */
function pyString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else if (c < 0x20 || c > 0x7e) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += s[i];
  }
  return out + '"';
}

/** Keys in Python's `sort_keys` order (code points). */
function sortedKeys(o: object): string[] {
  return Object.keys(o).sort((a, b) => {
    const x = [...a];
    const y = [...b];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const d = (x[i].codePointAt(0) as number) - (y[i].codePointAt(0) as number);
      if (d !== 0) return d;
    }
    return x.length - y.length;
  });
}

/** `json.dumps(v, sort_keys=True)` with Python's default separators (`", "`, `": "`): one line, as events are written. */
export function pyDumpsLine(v: PyJson): string {
  return pyDumps(v, undefined, 0, true);
}

/**
 * `json.dumps(v, sort_keys=True)`: compact (`","`/`":"`) when `indent` is undefined, else
 * indented (`","`/`": "`); `spaced` gives Python's default one-line separators. Plain
 * numbers that are not integers are written as floats.
 */
export function pyDumps(v: PyJson | undefined, indent?: number, level = 0, spaced = false): string {
  if (v === null || v === undefined) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : pyFloatRepr(v);
  if (v instanceof PyFloat) return v.text ?? pyFloatRepr(v.value);
  if (typeof v === 'string') return pyString(v);
  const nl = indent === undefined ? '' : '\n' + ' '.repeat(indent * (level + 1));
  const end = indent === undefined ? '' : '\n' + ' '.repeat(indent * level);
  const colon = indent === undefined && !spaced ? ':' : ': ';
  const comma = spaced ? ', ' : ',';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[${v.map((x) => nl + pyDumps(x, indent, level + 1, spaced)).join(comma)}${end}]`;
  }
  const keys = sortedKeys(v).filter((k) => v[k] !== undefined);
  if (keys.length === 0) return '{}';
  return `{${keys.map((k) => `${nl}${pyString(k)}${colon}${pyDumps(v[k], indent, level + 1, spaced)}`).join(comma)}${end}}`;
}

/** The original's `_checksum`: the first 8 hex of SHA-256 of the compact sorted JSON (without `_checksum`). */
export function pyChecksum(data: { [key: string]: PyJson }): string {
  const { _checksum: _ignored, ...rest } = data;
  return createHash('sha256').update(pyDumps(rest), 'utf8').digest('hex').slice(0, 8);
}

/** Why a text is not JSON. */
export class PyJsonError extends SmiError<'PY_JSON_SYNTAX'> {
  constructor(message: string, options?: SmiErrorOptions) {
    super('PY_JSON_SYNTAX', message, options);
  }
  override readonly name = 'PyJsonError';
}

/** Parse JSON, keeping floats as {@link PyFloat} (with their text) and large integers as bigints. */
export function parsePyJson(text: string): PyJson {
  let pos = 0;
  const fail = (msg: string): never => {
    throw new PyJsonError(`${msg} at offset ${pos}`);
  };
  const ws = (): void => {
    while (pos < text.length && ' \t\n\r'.includes(text[pos])) pos++;
  };
  const value = (depth: number): PyJson => {
    if (depth > 512) fail('nested too deeply');
    ws();
    const c = text[pos];
    if (c === '{') {
      pos++;
      const out: { [key: string]: PyJson } = {};
      ws();
      if (text[pos] === '}') {
        pos++;
        return out;
      }
      for (;;) {
        ws();
        if (text[pos] !== '"') fail('expected a key');
        const k = string();
        ws();
        if (text[pos++] !== ':') fail('expected ":"');
        out[k] = value(depth + 1);
        ws();
        const d = text[pos++];
        if (d === '}') return out;
        if (d !== ',') fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      pos++;
      const out: PyJson[] = [];
      ws();
      if (text[pos] === ']') {
        pos++;
        return out;
      }
      for (;;) {
        out.push(value(depth + 1));
        ws();
        const d = text[pos++];
        if (d === ']') return out;
        if (d !== ',') fail('expected "," or "]"');
      }
    }
    if (c === '"') return string();
    for (const [lit, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
      ['NaN', new PyFloat(NaN, 'NaN')],
      ['Infinity', new PyFloat(Infinity, 'Infinity')],
      ['-Infinity', new PyFloat(-Infinity, '-Infinity')],
    ] as const) {
      if (text.startsWith(lit, pos)) {
        pos += lit.length;
        return v;
      }
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(pos, pos + 400));
    if (!m) return fail('unexpected character');
    pos += m[0].length;
    if (m[2] !== undefined || m[3] !== undefined) return new PyFloat(Number(m[0]), m[0]);
    const n = Number(m[0]);
    return Number.isSafeInteger(n) ? n : BigInt(m[0]);
  };
  const string = (): string => {
    pos++;
    let out = '';
    for (;;) {
      const c = text[pos++];
      if (c === undefined) fail('unterminated string');
      if (c === '"') return out;
      if (c === '\\') {
        const e = text[pos++];
        const map: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e === 'u') {
          const hex = text.slice(pos, pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          pos += 4;
        } else if (map[e] !== undefined) out += map[e];
        else fail('bad escape');
      } else out += c;
    }
  };
  const v = value(0);
  ws();
  if (pos !== text.length) fail('trailing characters');
  return v;
}

/** A parsed value as plain JS (floats as numbers, big integers as bigints). */
export function plain(v: PyJson): unknown {
  if (v instanceof PyFloat) return v.value;
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}
