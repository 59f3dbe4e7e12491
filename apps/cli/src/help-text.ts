/**
 * The text of `smi --help`: the usage line, every command by its usage line and description
 * (from the registry, without loading any command), the options every command takes, the
 * examples and the epilog. `smi --help` prints it without loading yargs, whose layout measures
 * every word's width by grapheme segmentation (a tenth of a second for this much text); the
 * same parts go to yargs for the errors and completion of the main parser.
 */
import type { Example, OptionSpec } from './command.js';
import { COMMAND_ENTRIES } from './commands/registry.js';

/** Options every command takes. */
export const GLOBAL_OPTIONS: Readonly<Record<'json' | 'quiet', OptionSpec>> = {
  json: {
    type: 'boolean',
    default: false,
    describe: 'Print the result as one JSON line on stdout (errors too: {"status":"error","error_code","message"})',
  },
  quiet: { type: 'boolean', default: false, describe: 'No progress or warnings on stderr' },
};

export const USAGE = '$0 <command> [options]\n\nSMI: an offline Sui Move sandbox and type-inhabitation benchmark. `smi help <command>` for details.';

export const EPILOG = [
  'A file option given - reads standard input or writes standard output.',
  'Exit status: 0 ok; 1 the result is a failure or a difference; 2 bad input; 70 internal error;',
  '130 interrupted (Ctrl-C; 143 SIGTERM); 141 standard output closed by its reader.',
  'Completion: smi completion bash >> ~/.bashrc (or zsh >> ~/.zshrc).',
].join('\n');

/** Examples of `smi --help` (each command's own are in its spec). */
export const MAIN_EXAMPLES: readonly Example[] = [
  { command: '$0 extract --package-dir ../shared/corpus/0x2 --out - | head', describe: 'interface JSON of a package' },
  { command: '$0 help call', describe: 'the options and examples of a command' },
];

/** `text` broken at spaces into lines of at most `width` characters (a longer word keeps its own line). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines.length > 0 ? lines : [''];
}

/** Rows of a two-column table: the left column padded to `left`, the right wrapped to the rest. */
function table(rows: readonly [string, string, string?][], left: number, width: number): string[] {
  const out: string[] = [];
  for (const [l, r, tail] of rows) {
    const lines = wrap(r, Math.max(20, width - left));
    if (tail !== undefined) {
      const last = lines.length - 1;
      const room = width - left - (lines[last] as string).length - 1;
      if (room >= tail.length) lines[last] = `${lines[last]}${' '.repeat(room - tail.length + 1)}${tail}`;
      else lines.push(`${' '.repeat(Math.max(0, width - left - tail.length))}${tail}`);
    }
    lines.forEach((text, i) => out.push(`${(i === 0 ? l : '').padEnd(left)}${text}`.trimEnd()));
  }
  return out;
}

/** `smi --help`, laid out for a terminal `width` columns wide. */
export function mainHelp(width: number): string {
  const commands: [string, string][] = [...COMMAND_ENTRIES.map((c): [string, string] => [`  smi ${c.command}`, c.describe]), ['  smi help [command..]', 'Show the help of a command']];
  const left = Math.max(...commands.map(([l]) => l.length)) + 2;
  const type = (o: OptionSpec): string => `[${String(o.type)}]${o.default !== undefined ? ` [default: ${String(o.default)}]` : ''}`;
  const options: [string, string, string][] = [
    ...Object.entries(GLOBAL_OPTIONS).map(([name, o]): [string, string, string] => [`      --${name}`, String(o.describe ?? ''), type(o)]),
    ['  -h, --help', 'Show help', '[boolean]'],
    ['  -V, --version', 'Show version number', '[boolean]'],
  ];
  const optionLeft = Math.max(...options.map(([l]) => l.length)) + 2;
  return [
    USAGE.replace(/\$0/g, 'smi'),
    '',
    'Commands:',
    ...table(commands, left, width),
    '',
    'Options:',
    ...table(options, optionLeft, width),
    '',
    'Examples:',
    ...MAIN_EXAMPLES.flatMap((e) => [`  # ${e.describe}`, `  ${e.command.replace(/\$0/g, 'smi')}`]),
    '',
    EPILOG,
    '',
  ].join('\n');
}
