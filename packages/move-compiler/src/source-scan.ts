/**
 * What Move sources name at the start of a path (`deepbook::pool::Pool`, `0x3::...`), read
 * token by token: comments, string literals (`b"..."`, `x"..."`, `"..."` in attributes) and
 * the insides of other tokens are skipped, so a comment that mentions `deepbook::` adds no
 * dependency.
 */

/** The addresses sources start paths with: named addresses (lower case) and numeric ones (`0x...`, as written, lower case). */
export interface PathRoots {
  names: Set<string>;
  numeric: Set<string>;
  /** The addresses modules are declared at (`module X::m`), as written. */
  modules: Set<string>;
}

/** Scan sources for the roots of `a::b` paths. */
export function pathRoots(sources: readonly string[]): PathRoots {
  const roots: PathRoots = { names: new Set(), numeric: new Set(), modules: new Set() };
  for (const text of sources) scan(text, roots);
  return roots;
}

function scan(text: string, roots: PathRoots): void {
  const n = text.length;
  let i = 0;
  // The previous significant token ended with `::` (so an identifier after it is not a root).
  let afterColons = false;
  // The previous word was the keyword `module`.
  let afterModule = false;
  while (i < n) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      // Block comments nest in Move.
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (text[i] === '*' && text[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
      continue;
    }
    if (c === '"') {
      i = skipString(text, i + 1);
      afterColons = false;
      continue;
    }
    if ((c === 'b' || c === 'x') && text[i + 1] === '"') {
      i = skipString(text, i + 2);
      afterColons = false;
      continue;
    }
    if (/[A-Za-z_]/.test(c) || (c === '0' && (text[i + 1] === 'x' || text[i + 1] === 'X'))) {
      const start = i;
      i++;
      while (i < n && /[A-Za-z0-9_]/.test(text[i])) i++;
      const word = text.slice(start, i);
      let j = i;
      while (j < n && (text[j] === ' ' || text[j] === '\t' || text[j] === '\n' || text[j] === '\r')) j++;
      const before = start > 0 ? text[start - 1] : '';
      // `@name` in an address literal is not a path; a word right after `::` is a member, not a root.
      if (text[j] === ':' && text[j + 1] === ':' && !afterColons && before !== '@') {
        if (afterModule) roots.modules.add(/^0[xX]/.test(word) ? word.toLowerCase() : word);
        else if (/^0[xX]/.test(word)) roots.numeric.add(word.toLowerCase());
        else roots.names.add(word.toLowerCase());
      }
      afterModule = word === 'module' && !afterColons;
      afterColons = false;
      continue;
    }
    if (c === ':' && text[i + 1] === ':') {
      afterColons = true;
      i += 2;
      continue;
    }
    if (!/\s/.test(c)) afterColons = false;
    i++;
  }
}

function skipString(text: string, i: number): number {
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}
