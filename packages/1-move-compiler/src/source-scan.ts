/**
 * What Move sources name at the start of a path (`deepbook::pool::Pool`, `0x3::...`), read
 * token by token: comments, string literals (`b"..."`, `x"..."`, `"..."` in attributes) and
 * the insides of other tokens are skipped, so a comment that mentions `deepbook::` adds no
 * dependency.
 *
 * Names resolve as the compiler resolves them: outside a `use`, the leading name of a path is
 * first a module of the package itself (`oracle::new()` in a package with a module `oracle`)
 * or an alias a `use` of the file introduces (`use lib::oracle as o;` → `o`); only otherwise is
 * it a named address. The first name of a `use` is always an address.
 */

/** The addresses sources start paths with: named addresses (lower case) and numeric ones (`0x...`, as written, lower case). */
export interface PathRoots {
  names: Set<string>;
  numeric: Set<string>;
  /** The addresses modules are declared at (`module X::m`), as written. */
  modules: Set<string>;
  /** The names of the modules declared (`module X::m` → `m`). */
  moduleNames: Set<string>;
}

/** What one file names. */
interface FileScan {
  /** Leading names of paths outside `use` (lower case): a module or an alias of the package may shadow them. */
  shadowable: Set<string>;
  /** Aliases introduced by the file's `use` declarations, and its enums (`Color::Red`), lower case. */
  aliases: Set<string>;
}

/** Scan sources (the files of one package) for the roots of `a::b` paths. */
export function pathRoots(sources: readonly string[]): PathRoots {
  const roots: PathRoots = { names: new Set(), numeric: new Set(), modules: new Set(), moduleNames: new Set() };
  const files = sources.map((text) => scan(text, roots));
  const own = new Set([...roots.moduleNames].map((n) => n.toLowerCase()));
  for (const f of files) {
    for (const name of f.shadowable) if (!own.has(name) && !f.aliases.has(name)) roots.names.add(name);
  }
  return roots;
}

/** The aliases a `use` declaration introduces (`use a::b;` → b, `use a::b::{Self as c, d};` → c, d), lower case. */
export function useAliases(declaration: string): string[] {
  const tokens = declaration.match(/[A-Za-z_][A-Za-z0-9_]*|0[xX][0-9a-fA-F_]+|::|[{},]/g) ?? [];
  if (tokens[0] === 'fun') return [];
  const out: string[] = [];
  let i = 0;
  // item := segment ('::' segment)* ('::' '{' item (',' item)* '}' | 'as' alias)?
  const item = (parent: string | undefined): void => {
    let prev = parent;
    for (;;) {
      const t = tokens[i];
      if (t === undefined) return;
      if (t === '{') {
        i++;
        while (i < tokens.length && tokens[i] !== '}') {
          if (tokens[i] === ',') i++;
          else item(prev);
        }
        i++;
        return;
      }
      i++;
      if (tokens[i] === '::') {
        prev = t;
        i++;
        continue;
      }
      if (tokens[i] === 'as' && tokens[i + 1] !== undefined && /^[A-Za-z_]/.test(tokens[i + 1])) {
        out.push(tokens[i + 1]);
        i += 2;
        return;
      }
      const name = t === 'Self' ? prev : t;
      if (name !== undefined) out.push(name);
      return;
    }
  };
  while (i < tokens.length) {
    if (tokens[i] === ',' || tokens[i] === '}') i++;
    else item(undefined);
  }
  return [...new Set(out.filter((x) => /^[A-Za-z_]/.test(x)).map((x) => x.toLowerCase()))];
}

function scan(text: string, roots: PathRoots): FileScan {
  const file: FileScan = { shadowable: new Set(), aliases: new Set() };
  // End of the `use` declaration being read, and whether its first root was seen.
  let useEnd = -1;
  let useRootSeen = false;
  // The previous word was the address of a `module X::` declaration (the next word is the module's name).
  let moduleNameNext = false;
  // The previous word was the keyword `enum` (the next word is a type whose variants are `Name::Variant`).
  let enumNameNext = false;
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
      if (moduleNameNext && afterColons) roots.moduleNames.add(word);
      moduleNameNext = false;
      if (enumNameNext) file.aliases.add(word.toLowerCase());
      enumNameNext = word === 'enum' && !afterColons;
      if (word === 'use' && !afterColons && start > useEnd) {
        const end = text.indexOf(';', i);
        useEnd = end < 0 ? n : end;
        useRootSeen = false;
        const declaration = text
          .slice(i, useEnd)
          .replace(/\/\/[^\n]*/g, ' ')
          .replace(/\/\*[\s\S]*?\*\//g, ' ');
        for (const a of useAliases(declaration)) file.aliases.add(a);
      }
      let j = i;
      while (j < n && (text[j] === ' ' || text[j] === '\t' || text[j] === '\n' || text[j] === '\r')) j++;
      const before = start > 0 ? text[start - 1] : '';
      // `@name` in an address literal is not a path; a word right after `::` is a member, not a root.
      if (text[j] === ':' && text[j + 1] === ':' && !afterColons && before !== '@') {
        const inUse = start < useEnd;
        if (afterModule) {
          roots.modules.add(/^0[xX]/.test(word) ? word.toLowerCase() : word);
          moduleNameNext = true;
        } else if (inUse && useRootSeen) {
          // a nested group (`use sui::{coin::Coin}`): a module, not an address
        } else if (/^0[xX]/.test(word)) roots.numeric.add(word.toLowerCase());
        else if (inUse) roots.names.add(word.toLowerCase());
        else file.shadowable.add(word.toLowerCase());
        if (inUse) useRootSeen = true;
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
  return file;
}

function skipString(text: string, i: number): number {
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}
