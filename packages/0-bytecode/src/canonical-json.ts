/**
 * Deterministic JSON text: object keys sorted recursively (by Unicode code point, which is
 * the byte order of their UTF-8 encoding, as Rust's `String` ordering), arrays kept in order.
 * Two layouts, because two kinds of stored data depend on them byte for byte:
 *
 * - `'file'` (the default), byte-compatible with the original tool's
 *   `canonicalize_json_value` + `serde_json::to_writer_pretty` + trailing newline: two-space
 *   indentation, `"key": value`, empty containers written as `[]` / `{}`. Interface JSON
 *   files and their goldens are written this way.
 * - `'hash'`, the compact text (no whitespace, no trailing newline, as `JSON.stringify`)
 *   that is hashed into keys stored on disk: a run's spec hash (compared by `--resume` and
 *   `merge`) and the response cache's file names. Changing it would orphan those.
 */
/** Compare two strings by code point (= UTF-8 byte order), not by UTF-16 code unit. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (0xD800..0xDFFF) encode code points above 0xFFFF and must sort after
    // every BMP character, including 0xE000..0xFFFF.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The layout of {@link canonicalJson}'s output (see the module comment). */
export type CanonicalJsonLayout = 'file' | 'hash';

/** Options of {@link canonicalJson}. */
export interface CanonicalJsonOptions {
  /** `'file'` (default): pretty, as the original tool's JSON files; `'hash'`: compact, for hashed keys. */
  for?: CanonicalJsonLayout;
}

function write(value: unknown, indent: string | null, out: string[], path: string): void {
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number at ${path}`);
      out.push(JSON.stringify(value));
      return;
    case 'bigint':
      // serde_json writes integers of any width as bare digits.
      out.push(value.toString());
      return;
    case 'object':
      break;
    default:
      throw new TypeError(`canonicalJson: cannot encode ${typeof value} at ${path}`);
  }
  if (value === null) {
    out.push('null');
    return;
  }
  // `indent` is null for the compact ('hash') layout.
  const inner = indent === null ? null : indent + '  ';
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push('[]');
      return;
    }
    out.push('[');
    value.forEach((item: unknown, i) => {
      if (inner !== null) out.push(i === 0 ? '\n' : ',\n', inner);
      else if (i > 0) out.push(',');
      // Like JSON.stringify, holes and undefined inside arrays become null.
      write(item === undefined ? null : item, inner, out, `${path}[${i}]`);
    });
    if (indent !== null) out.push('\n', indent);
    out.push(']');
    return;
  }
  if (!isPlainObject(value)) {
    throw new TypeError(`canonicalJson: cannot encode ${Object.prototype.toString.call(value)} at ${path}`);
  }
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort(compareCodePoints);
  if (keys.length === 0) {
    out.push('{}');
    return;
  }
  out.push('{');
  keys.forEach((k, i) => {
    if (inner !== null) out.push(i === 0 ? '\n' : ',\n', inner, JSON.stringify(k), ': ');
    else out.push(i === 0 ? '' : ',', JSON.stringify(k), ':');
    write(value[k], inner, out, `${path}.${k}`);
  });
  if (indent !== null) out.push('\n', indent);
  out.push('}');
}

/**
 * Render a JSON-compatible value as canonical JSON: object keys sorted recursively, arrays
 * untouched. By default (`for: 'file'`) pretty-printed with two-space indentation like
 * serde_json's pretty printer, and a trailing newline; with `for: 'hash'` compact, with no
 * trailing newline, and `undefined` written as `null` (as where a key is missing on one side).
 *
 * Accepts plain objects, arrays, strings, finite numbers, booleans, `null` and bigints
 * (written as bare integer digits). Object entries whose value is `undefined` are
 * skipped; anything else (functions, symbols, class instances such as `Uint8Array` or
 * `Map`) throws a `TypeError`.
 */
export function canonicalJson(value: unknown, options: CanonicalJsonOptions = {}): string {
  const out: string[] = [];
  if (options.for === 'hash') {
    write(value === undefined ? null : value, null, out, '$');
  } else {
    write(value, '', out, '$');
    out.push('\n');
  }
  return out.join('');
}
