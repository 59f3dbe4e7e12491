/**
 * Reading a model's answer: the original's tolerant JSON extraction (the first Markdown
 * code fence, json-tagged or bare; else the text; else the span from the first `{` to the
 * last `}`, or `[` to `]`), and its accepted shapes (an array of strings, or
 * `{"key_types": [...]}`). What cannot be read is "unparseable", an outcome of its own.
 */
import { compareCodePoints } from '@smi/bytecode';

/** How an answer was read. */
export type ParseMode = 'json' | 'fenced' | 'embedded';

/** An answer read, or why not. */
export type Extraction =
  | { $kind: 'ok'; types: string[]; mode: ParseMode }
  | { $kind: 'unparseable'; reason: string };

const FENCE = /```(?:json)?\s*([\s\S]*?)\s*```/i;

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

/** The JSON value of an answer, as the original's `extract_json_value` found it. */
export function extractJsonValue(text: string): { $kind: 'ok'; value: unknown; mode: ParseMode } | { $kind: 'unparseable'; reason: string } {
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
