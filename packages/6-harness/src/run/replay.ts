/**
 * The answers an earlier run recorded: every model call of its results (cache key and
 * answer), so `ReplayModel` can run the same questions again with no model at all, and a
 * result can be checked against what produced it.
 */
import type { AnswerSource } from '../model/scripted.js';
import type { GenerateResult, ModelUsage } from '../model/types.js';
import type { RunStore } from './run-store.js';

interface RecordedCall {
  cache_key?: unknown;
  response?: unknown;
  finish_reason?: unknown;
  usage?: unknown;
  request_id?: unknown;
}

/** The recorded answers of a run (calls that got an answer), by cache key. */
export function runAnswers(store: RunStore): AnswerSource {
  const byKey = new Map<string, Omit<GenerateResult, 'cache' | 'attempts'>>();
  for (const r of store.results().results) {
    const calls = (r.details?.calls ?? []) as RecordedCall[];
    for (const c of calls) {
      if (typeof c.cache_key !== 'string' || typeof c.response !== 'string') continue;
      byKey.set(c.cache_key, {
        content: c.response,
        finishReason: typeof c.finish_reason === 'string' ? c.finish_reason : null,
        usage: (c.usage as ModelUsage | null) ?? { input: 0, output: 0, cached: 0, reasoning: 0, total: 0 },
        requestId: typeof c.request_id === 'string' ? c.request_id : null,
      });
    }
  }
  return { description: `the run ${store.dir ?? '(in memory)'} (${byKey.size} recorded answers)`, answer: (key) => byKey.get(key) };
}
