/**
 * The command line before and after yargs sees it: which command is named, `-` as a
 * separate word after an option (`--out -` means `--out=-`, which yargs alone reads as an
 * unknown argument), and "did you mean" suggestions for unknown commands and options.
 */

/** An option as the normalizer needs it: its names and whether it is a flag. */
export interface OptionShape {
  names: readonly string[];
  boolean: boolean;
}

/** `true` for `--json`, `--json=true`, and not for `--no-json` or `--json=false`. */
export function wantsJson(argv: readonly string[]): boolean {
  let json = false;
  for (const a of argv) {
    if (a === '--') break;
    if (a === '--json' || a === '--json=true') json = true;
    else if (a === '--no-json' || a === '--json=false') json = false;
  }
  return json;
}

/**
 * The first word that is not an option, and where it is: the command's name, unless only
 * options were given. Values of options before the command are not supported (yargs
 * takes options after it), so the first bare word is the command.
 */
export function firstWord(argv: readonly string[]): { word: string; index: number } | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return i + 1 < argv.length ? { word: argv[i + 1], index: i + 1 } : null;
    if (!a.startsWith('-') || a === '-') return { word: a, index: i };
  }
  return null;
}

/**
 * Join `--name -` (and `-n -`) into `--name=-` when `name` is an option that takes a
 * value, so that `-` (standard input or output) can be written as a separate word.
 */
export function joinDashValues(argv: readonly string[], options: readonly OptionShape[]): string[] {
  const takesValue = new Map<string, boolean>();
  for (const o of options) for (const n of o.names) takesValue.set(n, !o.boolean);
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const m = /^--?([^=]+)$/.exec(a);
    if (m && argv[i + 1] === '-' && takesValue.get(m[1]) === true) {
      out.push(`${a}=-`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** Edit distance (insertions, deletions, substitutions, adjacent transpositions). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The candidate closest to `word`, when it is close enough to be a likely typo: within a
 * third of the word's length (at least 2 edits), or a prefix of at least 3 letters.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const dist = c.startsWith(word) && word.length >= 3 ? 0.5 : editDistance(word, c);
    if (dist < bestDistance) {
      best = c;
      bestDistance = dist;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** ` (did you mean X?)`, or nothing. */
export function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`;
}

/** The option name as typed on the command line: `--out`, or `-o` for one letter. */
export function dashed(name: string): string {
  return name.length === 1 ? `-${name}` : `--${name}`;
}
