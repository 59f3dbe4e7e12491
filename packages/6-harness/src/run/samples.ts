/**
 * A finished run's results as flat samples: `samples.jsonl` (one JSON object per package),
 * `samples.csv` (the same columns, RFC 4180 quoting) and `junit.xml` (one test case per
 * package: `correct` passes, `wrong` fails, the failure outcomes (`unparseable`, `limit`,
 * `model_error`, `infra_error`) are errors), for spreadsheets and CI dashboards. Every package of the run is a sample,
 * failures included, so no file holds a smaller denominator than the run JSON.
 */
import type { RunStore } from './run-store.js';
import { isFailure, type PackageResult } from './types.js';

/** One sample: the columns every phase shares, then its score's fields (`score_<name>`). */
export type Sample = Record<string, string | number | boolean | null>;

/** Column order: the shared ones, then the score fields in the order they appear. */
const SHARED = ['package_id', 'index', 'outcome', 'error', 'timed_out', 'elapsed_seconds', 'session', 'calls', 'input_tokens', 'output_tokens', 'cost_usd'] as const;

/** The samples of `results`, in run order. */
export function samplesOf(results: readonly PackageResult[]): Sample[] {
  return [...results]
    .sort((a, b) => a.index - b.index)
    .map((r) => {
      const s: Sample = {
        package_id: r.package_id,
        index: r.index,
        outcome: r.outcome,
        error: r.error,
        timed_out: r.timed_out,
        elapsed_seconds: Math.round(r.elapsed_seconds * 1000) / 1000,
        session: r.session,
        calls: r.usage.calls,
        input_tokens: r.usage.input,
        output_tokens: r.usage.output,
        cost_usd: r.usage.cost_usd,
      };
      const score = r.row.score;
      if (typeof score === 'object' && score !== null) {
        for (const [k, v] of Object.entries(score as Record<string, unknown>)) {
          if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string' || v === null) s[`score_${k}`] = v;
        }
      }
      // A rate each phase reads first: Phase I's F1, Phase II's share of targets created.
      const sc = score as { targets?: number; created_hits?: number } | undefined;
      if (sc !== undefined && typeof sc.targets === 'number' && typeof sc.created_hits === 'number') s.hit_rate = sc.targets === 0 ? 0 : sc.created_hits / sc.targets;
      return s;
    });
}

/** `samples.jsonl`. */
export function samplesJsonl(samples: readonly Sample[]): string {
  return samples.map((s) => JSON.stringify(s) + '\n').join('');
}

function columnsOf(samples: readonly Sample[]): string[] {
  const cols: string[] = [...SHARED];
  for (const s of samples) for (const k of Object.keys(s)) if (!cols.includes(k)) cols.push(k);
  return cols;
}

function csvCell(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return '';
  const t = String(v);
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/** `samples.csv`: a header, then a line per sample (empty cell for `null`). */
export function samplesCsv(samples: readonly Sample[]): string {
  const cols = columnsOf(samples);
  return [cols.join(','), ...samples.map((s) => cols.map((c) => csvCell(s[c])).join(','))].join('\r\n') + '\r\n';
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 cannot hold at all
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

function xml(t: string): string {
  // Characters XML 1.0 cannot hold at all are dropped; the rest escaped.
  return t.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** `junit.xml`: the run as one test suite named `name`. */
export function junitXml(name: string, results: readonly PackageResult[]): string {
  const ordered = [...results].sort((a, b) => a.index - b.index);
  const errors = ordered.filter((r) => isFailure(r.outcome)).length;
  const failures = ordered.filter((r) => r.outcome !== 'correct' && !isFailure(r.outcome)).length;
  const time = ordered.reduce((a, r) => a + r.elapsed_seconds, 0).toFixed(3);
  const cases = ordered.map((r) => {
    const head = `    <testcase classname="${xml(name)}" name="${xml(r.package_id)}" time="${r.elapsed_seconds.toFixed(3)}"`;
    if (r.outcome === 'correct') return `${head}/>`;
    const tag = isFailure(r.outcome) ? 'error' : 'failure';
    const sc = r.row.score as { targets?: number; created_hits?: number; f1?: number } | undefined;
    const how =
      typeof sc?.targets === 'number' && typeof sc.created_hits === 'number'
        ? ` (created ${sc.created_hits} of ${sc.targets} target types)`
        : typeof sc?.f1 === 'number'
          ? ` (F1 ${sc.f1.toFixed(3)})`
          : '';
    const message = `${r.outcome}${how}${r.error ? `: ${r.error}` : ''}`;
    return `${head}>\n      <${tag} type="${r.outcome}" message="${xml(message.slice(0, 500))}">${xml(message)}</${tag}>\n    </testcase>`;
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="${xml(name)}" tests="${ordered.length}" failures="${failures}" errors="${errors}" time="${time}">\n` +
    `  <testsuite name="${xml(name)}" tests="${ordered.length}" failures="${failures}" errors="${errors}" skipped="0" time="${time}">\n` +
    cases.join('\n') +
    (cases.length > 0 ? '\n' : '') +
    '  </testsuite>\n</testsuites>\n'
  );
}

/** Write `samples.jsonl`, `samples.csv` and `junit.xml` of a run (suite `name`) into its store. */
export function writeSampleFiles(store: RunStore, name: string, results: readonly PackageResult[]): void {
  const samples = samplesOf(results);
  store.writeFile('samples.jsonl', samplesJsonl(samples));
  store.writeFile('samples.csv', samplesCsv(samples));
  store.writeFile('junit.xml', junitXml(name, results));
}
