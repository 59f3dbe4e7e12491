/**
 * Reading a model's answer: the original's tolerant JSON extraction (the first Markdown
 * code fence, json-tagged or bare; else the text; else the span from the first `{` to the
 * last `}`, or `[` to `]`), and its accepted shapes (an array of strings, or
 * `{"key_types": [...]}`). What cannot be read is "unparseable", an outcome of its own.
 */
import { compareCodePoints, errorMessage } from '@smi/bytecode';

/** How an answer was read. */
export type ParseMode = 'json' | 'fenced' | 'embedded';

/** An answer read, or why not. */
export type Extraction = { $kind: 'ok'; types: string[]; mode: ParseMode } | { $kind: 'unparseable'; reason: string };

const FENCE = /```(?:json)?\s*([\s\S]*?)\s*```/i;

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, message: errorMessage(e) };
  }
}

/** The end (exclusive) of the JSON array or object opening at `start`, brackets matched outside strings; -1 when it does not close. */
function closingOf(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Openings of JSON values tried in prose, at most. */
const MAX_EMBEDDED = 64;

/**
 * The JSON value of an answer, as the original's `extract_json_value` found it. With
 * `accept`, a value of another shape is not the answer: the text is searched on for the
 * first balanced `{...}` or `[...]` that `accept`s (a calls array in prose that also
 * holds a bracket, or one call in brackets that the original's first-`{`-to-last-`}` span
 * read as an object), and the original's value is the answer only when none does.
 */
export function extractJsonValue(text: string, accept?: (value: unknown) => boolean): { $kind: 'ok'; value: unknown; mode: ParseMode } | { $kind: 'unparseable'; reason: string } {
  const found = originalJsonValue(text);
  if (accept === undefined || (found.$kind === 'ok' && accept(found.value))) return found;
  const fence = FENCE.exec(text);
  const bodies = fence ? [fence[1], text] : [text];
  for (const body of bodies) {
    let tried = 0;
    for (let i = 0; i < body.length && tried < MAX_EMBEDDED; i++) {
      if (body[i] !== '{' && body[i] !== '[') continue;
      tried++;
      const end = closingOf(body, i);
      if (end === -1) continue;
      const inner = tryParse(body.slice(i, end));
      if (inner.ok && accept(inner.value)) return { $kind: 'ok', value: inner.value, mode: fence && body !== text ? 'fenced' : 'embedded' };
    }
  }
  return found;
}

function originalJsonValue(text: string): { $kind: 'ok'; value: unknown; mode: ParseMode } | { $kind: 'unparseable'; reason: string } {
  const direct = tryParse(text);
  if (direct.ok) return { $kind: 'ok', value: direct.value, mode: 'json' };
  const fence = FENCE.exec(text);
  const body = fence ? fence[1].trim() : text.trim();
  const mode: ParseMode = fence ? 'fenced' : 'embedded';
  const parsed = tryParse(body);
  if (parsed.ok) return { $kind: 'ok', value: parsed.value, mode };
  for (const [open, close] of [
    ['{', '}'],
    ['[', ']'],
  ] as const) {
    const start = body.indexOf(open);
    const end = body.lastIndexOf(close);
    if (start === -1 || end <= start) continue;
    const inner = tryParse(body.slice(start, end + 1));
    if (inner.ok) return { $kind: 'ok', value: inner.value, mode: 'embedded' };
  }
  return { $kind: 'unparseable', reason: `no JSON found: ${parsed.message}` };
}

/** The key types of an answer: a JSON array of strings, or an object with `key_types` (non-strings are dropped, as the original did). */
export function extractKeyTypes(text: string): Extraction {
  const v = extractJsonValue(text);
  if (v.$kind === 'unparseable') return v;
  const list = Array.isArray(v.value) ? v.value : v.value !== null && typeof v.value === 'object' ? (v.value as { key_types?: unknown }).key_types : undefined;
  if (!Array.isArray(list)) return { $kind: 'unparseable', reason: 'unexpected JSON shape (expected array or {key_types:[...]})' };
  const types = [...new Set(list.filter((x): x is string => typeof x === 'string'))].sort(compareCodePoints);
  return { $kind: 'ok', types, mode: v.mode };
}

/** The JSON schema a server with structured output is asked to follow. */
export const KEY_TYPES_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: { key_types: { type: 'array', items: { type: 'string' } } },
  required: ['key_types'],
  additionalProperties: false,
};
