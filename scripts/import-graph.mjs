// The import graph of the workspace's sources, read with the TypeScript parser (no build needed).
// Used by scripts/lint.mjs (layering, no barrel self-imports, no file-level cycles, loader ↛
// interpreter) and runnable on its own:
//   node scripts/import-graph.mjs            cycles per package (type-only imports count)
//   node scripts/import-graph.mjs --exports  for every name a package's src/index.ts exports,
//                                            the files outside its src that import it
//   node scripts/import-graph.mjs --long [N] functions longer than N lines (default 150)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir)) {
    if (e === 'node_modules' || e === 'dist' || e.startsWith('.')) continue;
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx|mts)$/.test(e) && !e.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Every package and app: `{ name, dir, manifest }` (name is the package.json name). */
export function units() {
  const out = [];
  for (const group of ['packages', 'apps']) {
    const g = path.join(root, group);
    if (!existsSync(g)) continue;
    for (const d of readdirSync(g)) {
      const dir = path.join(g, d);
      const file = path.join(dir, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      out.push({ name: manifest.name, dir, manifest });
    }
  }
  return out;
}

const parsed = new Map();
/** A file's source, parsed once. */
export function sourceOf(file) {
  let sf = parsed.get(file);
  if (!sf) {
    sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(file, sf);
  }
  return sf;
}

/**
 * A file's imports: `{ spec, names, typeOnly, dynamic, line }`. `names` are the imported (or
 * re-exported) names (`*` for a namespace or `export *`); `typeOnly` when the whole
 * statement is `import type` / `export type` or every specifier is `type X`. Dynamic
 * `import('...')` (expressions and type positions) are listed with `dynamic: true`.
 */
export function importsOf(file) {
  const sf = sourceOf(file);
  const out = [];
  const lineOf = (n) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const c = st.importClause;
      const names = [];
      let allTypes = c?.isTypeOnly ?? false;
      if (c) {
        if (c.name) {
          names.push('default');
          allTypes = c.isTypeOnly;
        }
        const nb = c.namedBindings;
        if (nb && ts.isNamespaceImport(nb)) {
          names.push(...membersOf(nb.name.text, sf));
          allTypes = c.isTypeOnly;
        }
        if (nb && ts.isNamedImports(nb)) {
          for (const el of nb.elements) names.push((el.propertyName ?? el.name).text);
          if (!c.isTypeOnly && !c.name) allTypes = nb.elements.length > 0 && nb.elements.every((el) => el.isTypeOnly);
        }
      }
      out.push({ spec: st.moduleSpecifier.text, names, typeOnly: allTypes, dynamic: false, line: lineOf(st) });
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      const names = [];
      let allTypes = st.isTypeOnly;
      if (!st.exportClause || ts.isNamespaceExport(st.exportClause)) names.push('*');
      else {
        for (const el of st.exportClause.elements) names.push((el.propertyName ?? el.name).text);
        if (!st.isTypeOnly) allTypes = st.exportClause.elements.length > 0 && st.exportClause.elements.every((el) => el.isTypeOnly);
      }
      out.push({ spec: st.moduleSpecifier.text, names, typeOnly: allTypes, dynamic: false, line: lineOf(st) });
    }
  }
  const visit = (n) => {
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) {
      out.push({ spec: n.arguments[0].text, names: dynamicNames(n, sf), typeOnly: false, dynamic: true, line: lineOf(n) });
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      out.push({ spec: n.argument.literal.text, names: [n.qualifier ? n.qualifier.getText(sf).split('.')[0] : '*'], typeOnly: true, dynamic: true, line: lineOf(n) });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** The names a file reads as `ns.name` (a namespace import or a module object); `*` when it passes `ns` on. */
function membersOf(ns, sf) {
  const text = sf.getFullText();
  const names = new Set();
  for (const m of text.matchAll(new RegExp(`\\b${ns}\\.([A-Za-z_$][\\w$]*)`, 'g'))) names.add(m[1]);
  const bare = [...text.matchAll(new RegExp(`\\b${ns}\\b(?!\\.)`, 'g'))].length;
  return bare > 1 ? ['*', ...names] : [...names];
}

/** The names a dynamic `import('x')` takes: `const { a, b } = await import('x')`, `const m = await import('x')` then `m.a`. */
function dynamicNames(call, sf) {
  let p = call.parent;
  while (p && (ts.isAwaitExpression(p) || ts.isParenthesizedExpression(p) || (ts.isCallExpression(p) && p.expression.parent === p) || ts.isPropertyAccessExpression(p))) {
    if (ts.isPropertyAccessExpression(p) && p.name.text !== 'catch' && p.name.text !== 'then') return [p.name.text];
    p = p.parent;
  }
  if (p && ts.isVariableDeclaration(p)) {
    if (ts.isObjectBindingPattern(p.name)) return p.name.elements.map((e) => (e.propertyName ?? e.name).getText(sf));
    if (ts.isIdentifier(p.name)) return membersOf(p.name.text, sf);
  }
  return ['*'];
}

/** A relative specifier → the .ts file it names (`./x.js` → `./x.ts`, `./dir` → `./dir/index.ts`), or undefined. */
export function resolveRelative(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  const noJs = base.replace(/\.(m?js)$/, '');
  for (const c of [`${noJs}.ts`, `${noJs}.tsx`, `${noJs}.mts`, path.join(base, 'index.ts'), base]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  return undefined;
}

/** The static (load-time and type-only) file graph of one directory: file → Set(files). */
export function fileGraph(dir) {
  const graph = new Map();
  for (const file of walk(dir)) {
    const deps = new Set();
    for (const imp of importsOf(file)) {
      if (imp.dynamic) continue;
      const target = resolveRelative(file, imp.spec);
      if (target && target.startsWith(dir + path.sep)) deps.add(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** Strongly connected components of more than one file (or a file importing itself): the cycles. */
export function cycles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || graph.get(v)?.has(v)) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out;
}

/** Every source file under a directory (tests, examples, scripts included when asked). */
export function filesUnder(dir) {
  return walk(dir);
}

/** The names a barrel (src/index.ts) exports, each with its kind: 'value' or 'type'. */
export function barrelExports(file) {
  const sf = sourceOf(file);
  const out = new Map();
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) out.set(el.name.text, st.isTypeOnly || el.isTypeOnly ? 'type' : 'value');
    } else if (ts.isExportDeclaration(st) && !st.exportClause && ts.isStringLiteral(st.moduleSpecifier)) {
      const target = resolveRelative(file, st.moduleSpecifier.text);
      if (target) for (const [n, k] of barrelExports(target)) if (n !== 'default') out.set(n, st.isTypeOnly ? 'type' : k);
    } else if (st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      const kind = ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) ? 'type' : 'value';
      if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) out.set(d.name.getText(sf), kind);
      else if (st.name) out.set(st.name.text, kind);
    }
  }
  return out;
}

/** Functions (declarations, methods, arrow functions bound to a name) longer than `min` lines. */
export function longFunctions(file, min) {
  const sf = sourceOf(file);
  const out = [];
  const visit = (n) => {
    let name;
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) && n.body && n.name) name = n.name.getText(sf);
    else if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && ts.isVariableDeclaration(n.parent)) name = n.parent.name.getText(sf);
    if (name) {
      const a = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
      const b = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
      if (b - a + 1 > min) out.push({ name, file, line: a + 1, lines: b - a + 1 });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

function main() {
  const args = process.argv.slice(2);
  const rel = (f) => path.relative(root, f);
  if (args[0] === '--long') {
    const min = Number(args[1] ?? 150);
    const all = units().flatMap((u) => walk(path.join(u.dir, 'src')).flatMap((f) => longFunctions(f, min)));
    for (const f of all.sort((a, b) => b.lines - a.lines)) console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${rel(f.file)}:${f.line}`);
    return;
  }
  if (args[0] === '--exports') {
    const only = args[1];
    const all = units();
    // Every file of the workspace that may import a package by name: sources, tests, examples.
    const files = all.flatMap((u) => walk(u.dir));
    const readmes = all
      .map((u) => path.join(u.dir, 'README.md'))
      .concat([path.join(root, 'README.md')])
      .filter(existsSync);
    for (const u of all) {
      if (only && u.name !== only) continue;
      const barrel = path.join(u.dir, 'src', 'index.ts');
      if (!existsSync(barrel)) continue;
      const names = barrelExports(barrel);
      const users = new Map([...names.keys()].map((n) => [n, new Set()]));
      for (const f of files) {
        for (const imp of importsOf(f)) {
          const ownBarrel = f.startsWith(u.dir + path.sep) && resolveRelative(f, imp.spec) === barrel;
          if (imp.spec !== u.name && !ownBarrel) continue;
          for (const n of imp.names) {
            if (n === '*') for (const s of users.values()) s.add(rel(f));
            else users.get(n)?.add(rel(f));
          }
        }
      }
      for (const r of readmes) {
        const text = readFileSync(r, 'utf8');
        if (!text.includes(u.name)) continue;
        for (const n of names.keys()) if (new RegExp(`\\b${n.replace(/[$]/g, '\\$')}\\b`).test(text)) users.get(n)?.add(rel(r));
      }
      const unused = [...users].filter(([, s]) => s.size === 0).map(([n]) => n);
      console.log(`${u.name}: ${names.size} exports, ${unused.length} used by no other file`);
      if (args.includes('-v')) for (const [n, s] of users) console.log(`  ${n} [${names.get(n)}]: ${[...s].join(', ') || '-'}`);
    }
    return;
  }
  let total = 0;
  for (const u of units()) {
    const cs = cycles(fileGraph(path.join(u.dir, 'src')));
    total += cs.length;
    console.log(`${u.name}: ${cs.length} cycles`);
    if (args.includes('-v')) for (const c of cs) console.log(`  [${c.length}] ${c.map((f) => path.relative(path.join(u.dir, 'src'), f)).join(' ')}`);
  }
  console.log(`total: ${total} file-level cycles (strongly connected groups)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) main();
