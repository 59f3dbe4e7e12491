/**
 * @smi/report: reports of SMI runs. `readInputs` reads benchmark-local rows, Phase I / II
 * run directories and run JSON files; `buildReport` makes one self-contained HTML page
 * (Vega-Lite charts rendered to SVG offline, sortable tables, per-row drill-down, lazily
 * parsed transcripts) and `report.md`.
 */
export { buildReport } from './report.js';
export type { Report, ReportOptions } from './report.js';
export { readInputs, readInput, inputFromText, uniqueLabels, readBenchmarkRows } from './inputs.js';
export type { ReportInput, RunSpend } from './inputs.js';
export { ReportError } from './errors.js';
export type { ReportErrorCode } from './errors.js';
export { benchmarkView } from './benchmark-view.js';
export type { BenchmarkView, BenchmarkPackage } from './benchmark-view.js';
export { reportKind, REPORT_KINDS, KIND_LABELS } from './hit-kinds.js';
export type { ReportKind, HeadlineGaps } from './hit-kinds.js';
export { runView } from './run-view.js';
export type { RunView, RunPackage } from './run-view.js';
export { transcriptOf, MAX_BLOCK_CHARS } from './transcript.js';
export type { Transcript, TranscriptStep } from './transcript.js';
export { renderChart } from './charts.js';
export type { Chart } from './charts.js';
