/**
 * yargs' validation messages ("Unknown argument: outt", "Missing required argument: out",
 * "Invalid values: ...") as {@link UsageError}s with a stable code, in smi's words, with
 * the closest valid option or value suggested.
 */
import { closest, dashed, didYouMean } from './argv.js';
import { commandName, type CommandSpec, type OptionSpec, optionShapes } from './command.js';
import { oneLine, UsageError } from './errors.js';

const YARGS_BUILTIN_OPTIONS = ['help', 'version'];

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** `true` when `name` was written as an option (`--name`, `--name=x`, `-n`). */
function writtenAsOption(argv: readonly string[], name: string): boolean {
  return argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`) || a === `-${name}` || a === `--no-${name}`);
}

function usageOf(spec: CommandSpec<never> | undefined): string {
  return spec === undefined ? 'smi --help' : `usage: smi ${spec.command} (smi help ${commandName(spec)})`;
}

/** The error a yargs validation message stands for. */
export function translateYargsFailure(message: string, argv: readonly string[], spec: CommandSpec<never> | undefined, globals: Readonly<Record<string, OptionSpec>>): UsageError {
  const optionNames = [...(spec ? optionShapes(spec).flatMap((o) => o.names) : []), ...optionShapes({ options: globals }).flatMap((o) => o.names), ...YARGS_BUILTIN_OPTIONS].filter(
    (n) => n.length > 1,
  );

  const unknown = /^Unknown arguments?: (.+)$/s.exec(message);
  if (unknown) {
    const names = splitList(unknown[1]);
    const options = names.filter((n) => writtenAsOption(argv, n));
    if (options.length > 0) {
      const parts = options.map((n) => {
        const best = closest(n, optionNames);
        return `${dashed(n)}${didYouMean(best === undefined ? undefined : dashed(best))}`;
      });
      return new UsageError(`unknown option${options.length > 1 ? 's' : ''} ${parts.join(', ')}; ${usageOf(spec)}`, 'UNKNOWN_OPTION');
    }
    return new UsageError(`unexpected argument${names.length > 1 ? 's' : ''} ${names.map((n) => `'${n}'`).join(', ')}; ${usageOf(spec)}`, 'UNEXPECTED_ARGUMENT');
  }

  const missing = /^Missing required arguments?: (.+)$/s.exec(message);
  if (missing) {
    const names = splitList(missing[1]);
    const positionals = new Set(Object.keys(spec?.positionals ?? {}));
    const shown = names.map((n) => (positionals.has(n) ? `<${n}>` : dashed(n)));
    return new UsageError(`missing ${shown.join(', ')}; ${usageOf(spec)}`, 'MISSING_ARGUMENT');
  }

  if (/^Not enough non-option arguments/.test(message)) {
    const wanted = Object.keys(spec?.positionals ?? {}).map((n) => `<${n}>`);
    return new UsageError(`missing ${wanted.length > 0 ? wanted.join(' ') : 'an argument'}; ${usageOf(spec)}`, 'MISSING_ARGUMENT');
  }

  const invalid = /^Invalid values:\s*Argument: ([^,]+), Given: "?([^",]*)"?, Choices: (.+)$/s.exec(oneLine(message));
  if (invalid) {
    const [, name, given, choiceText] = invalid;
    const choices = splitList(choiceText).map((c) => c.replace(/^"|"$/g, ''));
    const positional = spec?.positionals?.[name] !== undefined;
    const shown = positional ? `<${name}>` : dashed(name);
    const hint = didYouMean(closest(given, choices));
    return new UsageError(`${shown}: '${given}' is not one of ${choices.join(', ')}${hint}`, 'INVALID_CHOICE');
  }

  return new UsageError(oneLine(message), 'USAGE');
}
