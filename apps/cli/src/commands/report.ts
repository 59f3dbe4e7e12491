/**
 * `smi report <inputs>... --out report.html`: one self-contained HTML report (charts as
 * SVG rendered offline by Vega-Lite, sortable tables, drill-down to each row, transcripts
 * parsed only when opened) and `report.md` beside it, from benchmark-local rows, Phase I /
 * II run directories and run JSON files — any mix, several runs of a phase side by side.
 */
import path from 'node:path';
import { buildReport, inputFromText, type ReportInput, readInput as readReportInput, uniqueLabels } from '@smi/report';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { type CliIo, jsonLine, readInput, resolveInputPath, resolvePath, writeOutput } from '../io.js';
import { header } from './registry.js';

interface ReportArgs {
  inputs: string[];
  out: string;
  md?: string;
  title?: string;
}

/** `report.html` → `report.md` (the Markdown beside the page). */
function markdownPathOf(out: string): string {
  const ext = path.extname(out);
  return (ext === '' ? out : out.slice(0, -ext.length)) + '.md';
}

async function loadInput(io: CliIo, arg: string, stdinUsed: { used: boolean }): Promise<ReportInput> {
  if (arg === '-') {
    if (stdinUsed.used) throw new UsageError('standard input (-) can be given once');
    stdinUsed.used = true;
    return inputFromText('stdin', (await readInput(io, '-', 'input')).toString('utf8'));
  }
  return readReportInput(resolveInputPath(io, arg));
}

const size = (n: number): string => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MB` : `${Math.ceil(n / 1024)} kB`);

/** `smi report`. */
export const reportCommand = defineCommand<ReportArgs>({
  ...header('report'),
  positionals: { inputs: { type: 'string', array: true, file: 'read', describe: 'benchmark-local .jsonl files, run directories, run JSON files (- : one of them on standard input)' } },
  options: {
    out: { type: 'string', default: 'report.html', describe: 'The HTML report (- for standard output); report.md is written beside it', file: 'write' },
    md: { type: 'string', describe: 'Where report.md goes (default: beside --out, same name with .md; - for standard output)', file: 'write' },
    title: { type: 'string', describe: 'The report title (default "SMI report")' },
  },
  examples: [
    {
      command: '$0 benchmark-local --target-corpus ../shared/corpus --use-ptb --output rows.jsonl --quiet && $0 report rows.jsonl --out report.html',
      describe: 'Tier A/B rates, the failure taxonomy and every package, with drill-down to each row',
    },
    {
      command:
        '$0 phase1 --corpus-root ../shared/corpus --samples 0 --agent mock-random --run-dir a --quiet && $0 phase1 --corpus-root ../shared/corpus --samples 0 --agent mock-noisy --run-dir b --quiet && $0 report a b --out phase1.html --title "Phase I: two agents"',
      describe: 'two runs side by side, with each package’s transcript',
    },
    { command: '$0 phase1 --corpus-root ../shared/corpus --samples 0 --agent mock-noisy --out - --quiet | $0 report - --out p1.html', describe: 'a run JSON on standard input' },
  ],
  epilog:
    'The HTML file needs no network: charts are SVG made when the report is written. Open it in any browser; click a column to sort, a row for its details. Exit 0 when written, 2 on unreadable inputs.',
  run: async (args, io) => {
    const stdinUsed = { used: false };
    const inputs: ReportInput[] = [];
    for (const arg of args.inputs) inputs.push(await loadInput(io, arg, stdinUsed));
    uniqueLabels(inputs);
    if (!args.quiet) io.stderr(`report: ${inputs.length} input${inputs.length === 1 ? '' : 's'} read; rendering charts\n`);
    const report = await buildReport(inputs, { ...(args.title !== undefined ? { title: args.title } : {}) });
    writeOutput(io, args.out, report.html);
    const md = args.md ?? (args.out === '-' ? null : markdownPathOf(args.out));
    if (md !== null) writeOutput(io, md, report.markdown);
    const result = {
      status: 'ok',
      out: args.out === '-' ? '-' : resolvePath(io, args.out),
      markdown: md === null ? null : md === '-' ? '-' : resolvePath(io, md),
      bytes: Buffer.byteLength(report.html),
      charts: report.charts.length,
      ...report.summary,
    };
    if (args.json && args.out !== '-' && md !== '-') io.stdout(jsonLine(result));
    else if (!args.quiet)
      io.stderr(
        `report: wrote ${args.out === '-' ? 'standard output' : args.out} (${size(result.bytes)}, ${report.charts.length} charts, ${report.summary.packages} package rows)${md !== null && md !== '-' ? ` and ${md}` : ''}\n`,
      );
    return 0;
  },
});
