/**
 * The import-boundary check of `npm run lint`: `src/` is a stack of layers (docs/architecture.md),
 * and a module may import only from its own layer or from a layer below it. Type-only imports count
 * too: a type that names a higher layer is the same dependency, only erased at run time.
 *
 * Written on the TypeScript compiler API (already the project's type checker) rather than with
 * dependency-cruiser: one parser that knows `import type`, inline `type` specifiers and `import()`
 * types exactly as tsc does, no new dependency tree in package-lock.json, and under a second for
 * the whole tree. The rules are data (LAYERS below), as depguard's are, each with its reason.
 *
 *   node --require ./scripts/ts-hook.js scripts/layers.ts
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

export interface Layer {
  /** The folder under src/. */
  readonly dir: string;
  /** What belongs there (shown in a violation, and in docs/architecture.md). */
  readonly holds: string;
  /** The sub-folders are peers that must not import each other (the components: kubelet, controllers, …). */
  readonly independentParts?: boolean;
}

/** Bottom to top: each layer may import the ones above it in this list, never the ones below. */
export const LAYERS: readonly Layer[] = [
  { dir: 'foundation', holds: 'the virtual clock, the release table, durations, the timeline' },
  {
    dir: 'apimachinery',
    holds: 'objects, API types, errors, selectors, validation helpers, UIDs (k8s.io/apimachinery, k8s.io/api)',
  },
  { dir: 'client', holds: 'the API client, shared informers, the work queue, the event recorder (client-go)' },
  {
    dir: 'helpers',
    holds: 'pod, PDB, taint and affinity helpers shared by the apiserver and the components (component-helpers)',
  },
  { dir: 'apiserver', holds: 'kube-apiserver and etcd: the generic Store, strategies, admission, watch' },
  {
    dir: 'components',
    holds: 'kubelet, controllers, scheduler, kube-proxy: each talks only to the apiserver',
    independentParts: true,
  },
  { dir: 'cluster', holds: 'the wiring: one cluster, its nodes, the network' },
  { dir: 'planning', holds: 'scenario plans, manifests, restoring a dump' },
  { dir: 'frontends', holds: 'the HTTP API server, serve, kubectl, explain, the report, the command line' },
];

/**
 * Type-only imports allowed upward, each with its reason: the known debts, to be paid, not added to.
 * (A value import upward is never allowed.)
 */
export const ALLOWED_TYPE_IMPORTS: readonly { from: string; to: string; why: string }[] = [
  {
    from: 'src/client/client.ts',
    to: 'src/apiserver/apiserver.ts',
    why: 'the in-process client is typed by the ApiServer it calls; an interface of the verbs in client/ will replace it',
  },
  {
    from: 'src/client/informer.ts',
    to: 'src/apiserver/apiserver.ts',
    why: 'the informer lists and watches through the ApiServer type; same interface as client.ts',
  },
];

/** One import: `from` imports `to` (both paths relative to the repository, `src/…`). */
export interface Edge {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

/** Tests and their support files may drive the whole cluster, whatever layer they sit in. */
export function isTestSupport(file: string): boolean {
  return /\.test\.ts$/.test(file) || /(^|\/|-)testing\.ts$/.test(file);
}

/** The relative imports of one module: import/export … from, `import type`, require(), import() and import('…') types. */
export function importsOf(file: string, text: string): { specifier: string; typeOnly: boolean }[] {
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const add = (node: ts.Node, typeOnly: boolean) => {
    if (ts.isStringLiteralLike(node) && node.text.startsWith('.')) found.push({ specifier: node.text, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named =
        clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const everyNameIsType =
        !!clause && !clause.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier, !!clause?.isTypeOnly || everyNameIsType);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const callee = node.expression;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if (isRequire || callee.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]!, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const SOURCE = /\.(ts|cjs|js|mjs)$/;

/** Resolves `./x` from `src/a/b.ts` as node and tsc do: the file itself, then .ts/.js/.cjs/.json, then an index. */
function resolve(root: string, from: string, specifier: string): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [base, `${base}.ts`, `${base}.js`, `${base}.cjs`, `${base}.json`, `${base}/index.ts`];
  return candidates.find(
    (c) =>
      (existsSync(path.join(root, c)) && SOURCE.test(c)) || (c.endsWith('.json') && existsSync(path.join(root, c))),
  );
}

/** Every import between the modules of `src/` (test files and test support left out). */
export function importGraph(root: string): { files: string[]; edges: Edge[] } {
  const files = readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .map((f) => path.posix.join('src', f.split(path.sep).join('/')))
    .filter((f) => SOURCE.test(f) && !isTestSupport(f))
    .sort();
  const edges: Edge[] = [];
  for (const from of files) {
    for (const { specifier, typeOnly } of importsOf(from, readFileSync(path.join(root, from), 'utf8'))) {
      const to = resolve(root, from, specifier);
      if (to?.startsWith('src/')) edges.push({ from, to, typeOnly });
    }
  }
  return { files, edges };
}

/** `src/components/kubelet/x.ts` → its layer's index, and the part (`kubelet`) for a layer of independent parts. */
function place(file: string, layers: readonly Layer[]): { layer: number; part: string } | undefined {
  const [, top, second] = file.split('/');
  const layer = layers.findIndex((l) => l.dir === top);
  if (layer < 0) return undefined;
  return { layer, part: layers[layer]!.independentParts ? (second ?? '') : '' };
}

/** Finds the cycles of a directed graph (Tarjan's strongly connected components of more than one node). */
export function cycles(nodes: Iterable<string>, arcs: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of arcs.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) connect(v);
  return found;
}

/** Every breach of the layering in a graph: a file outside the layers, an upward or sideways import, a folder cycle. */
export function violations(
  files: readonly string[],
  edges: readonly Edge[],
  layers: readonly Layer[] = LAYERS,
  allowed: readonly { from: string; to: string }[] = ALLOWED_TYPE_IMPORTS,
): string[] {
  const problems: string[] = [];
  const order = layers.map((l) => l.dir).join(' < ');
  for (const f of files) {
    if (!place(f, layers))
      problems.push(
        `${f} is in no layer: put it in one of src/{${layers.map((l) => l.dir).join(',')}}/ (docs/architecture.md)`,
      );
  }
  const folders = new Map<string, Set<string>>();
  for (const e of edges) {
    if (e.typeOnly && allowed.some((a) => a.from === e.from && a.to === e.to)) continue;
    const from = place(e.from, layers);
    const to = place(e.to, layers);
    const kind = e.typeOnly ? 'a type-only import' : 'an import';
    const topFrom = e.from.split('/')[1]!;
    const topTo = e.to.split('/')[1]!;
    if (topFrom !== topTo) folders.set(topFrom, (folders.get(topFrom) ?? new Set()).add(topTo));
    if (!from || !to) continue;
    if (to.layer > from.layer) {
      problems.push(
        `${e.from} → ${e.to}: ${kind} upward, from ${layers[from.layer]!.dir} to ${layers[to.layer]!.dir} (layers, bottom to top: ${order}). ` +
          `Move what both need down to ${layers[from.layer]!.dir} or below.`,
      );
    } else if (to.layer === from.layer && from.part !== to.part) {
      problems.push(
        `${e.from} → ${e.to}: ${kind} between two parts of ${layers[from.layer]!.dir} (${from.part} and ${to.part}), which ` +
          `must not depend on each other: move what both need to a lower layer (helpers, client).`,
      );
    }
  }
  for (const a of allowed) {
    if (!edges.some((e) => e.typeOnly && e.from === a.from && e.to === a.to))
      problems.push(
        `ALLOWED_TYPE_IMPORTS lists ${a.from} → ${a.to}, which no longer exists: remove it from scripts/layers.ts`,
      );
  }
  for (const cycle of cycles(folders.keys(), folders))
    problems.push(`the top-level folders of src/ form a cycle: ${cycle.join(', ')}`);
  return problems;
}

if (require.main === module) {
  const root = path.resolve(__dirname, '..');
  const { files, edges } = importGraph(root);
  const problems = violations(files, edges);
  for (const p of problems) process.stderr.write(`${p}\n`);
  process.stdout.write(`layers: ${files.length} modules, ${edges.length} imports, ${problems.length} violation(s)\n`);
  process.exit(problems.length === 0 ? 0 : 1);
}
