/**
 * Probing an endpoint before a run, as the original's `--doctor-agent` and
 * `--smoke-agent` did: the configuration (key redacted), `GET {base}/models`, one minimal
 * `POST {base}/chat/completions`; and a smoke call through the real client and parser.
 */
import type { ModelConfig } from './model/config.js';
import { generateParams } from './model/config.js';
import { type ModelClient, ModelError } from './model/types.js';
import { extractKeyTypes } from './phase1/extract.js';
import { errorMessage } from '@smi/bytecode';

/** The original's redaction: length and last six characters. */
export function redactSecret(v: string | null | undefined): string {
  if (!v) return '<missing>';
  return `len=${v.length} suffix=${v.length >= 6 ? v.slice(-6) : v}`;
}

/** One HTTP probe. */
export interface Probe {
  url: string;
  status: number | null;
  /** Model ids (for `/models`), or the start of the body. */
  detail: string;
  ok: boolean;
}

/** What `--doctor-agent` found. */
export interface DoctorReport {
  provider: string;
  base_url: string;
  model: string;
  api_key: string;
  models: Probe;
  chat: Probe;
  ok: boolean;
}

async function probe(url: string, init: RequestInit, timeoutMs: number, read: (body: string) => string): Promise<Probe> {
  try {
    const r = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const body = await r.text();
    return { url, status: r.status, detail: r.ok ? read(body) : body.slice(0, 400), ok: r.ok };
  } catch (e) {
    const c = (e as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
    const cause = c?.code ?? c?.errors?.[0]?.code ?? c?.message;
    return { url, status: null, detail: `${errorMessage(e)}${cause ? ` (${cause})` : ''}`, ok: false };
  }
}

/** Probe the configured endpoint. */
export async function doctorAgent(cfg: ModelConfig, timeoutMs = 30_000): Promise<DoctorReport> {
  const headers = { Authorization: `Bearer ${cfg.apiKey}`, 'Content-Type': 'application/json' };
  const models = await probe(`${cfg.baseUrl}/models`, { headers }, timeoutMs, (body) => {
    try {
      const data = (JSON.parse(body) as { data?: { id?: unknown }[] }).data ?? [];
      return `models: ${data.map((m) => String(m.id)).join(', ')}`;
    } catch {
      return body.slice(0, 400);
    }
  });
  const params = generateParams(cfg);
  const payload: Record<string, unknown> = { model: cfg.model, messages: [{ role: 'user', content: 'Return {"key_types": []} as JSON.' }] };
  if (params.thinking) payload.thinking = params.thinking;
  if (params.responseFormat) payload.response_format = params.responseFormat;
  const chat = await probe(`${cfg.baseUrl}/chat/completions`, { method: 'POST', headers, body: JSON.stringify(payload) }, Math.max(timeoutMs, 60_000), (body) => body.slice(0, 400));
  return { provider: cfg.provider, base_url: cfg.baseUrl, model: cfg.model, api_key: redactSecret(cfg.apiKey), models, chat, ok: models.ok && chat.ok };
}

/** The doctor's report as text. */
export function doctorText(r: DoctorReport): string {
  const line = (name: string, p: Probe): string => `${name} ${p.url} -> ${p.status ?? 'failed'}\n  ${p.detail.replace(/\n/g, ' ')}\n`;
  return (
    `Real-agent diagnostics\nprovider: ${r.provider}\nbase_url: ${r.base_url}\nmodel: ${r.model}\napi_key: ${r.api_key}\n` +
    line('GET', r.models) +
    line('POST', r.chat) +
    (r.ok ? 'ok: the endpoint answers\n' : 'NOT OK: see above\n')
  );
}

/** The original's smoke prompt. */
export const SMOKE_PROMPT = 'Return a JSON object with a single field "key_types" which is a JSON array of strings. For smoke testing, return: {"key_types": []}';

/** One call through the real client and the answer parser: resolves with what was read, or throws a {@link ModelError}. */
export async function smokeAgent(model: ModelClient, cfg: ModelConfig, signal?: AbortSignal): Promise<{ keyTypes: string[]; content: string }> {
  const r = await model.generate(
    [
      { role: 'system', content: 'You are a careful assistant. Output only valid JSON.' },
      { role: 'user', content: SMOKE_PROMPT },
    ],
    generateParams(cfg),
    signal ? { signal } : {},
  );
  const parsed = extractKeyTypes(r.content);
  if (parsed.$kind !== 'ok') throw new ModelError('malformed', `smoke: the answer is not the expected JSON (${parsed.reason}): ${r.content.slice(0, 200)}`);
  return { keyTypes: parsed.types, content: r.content };
}
