// Part of `npm run lint`: no import circle among the workspace's TypeScript files (issue 34).
//
// Reads every .ts/.tsx file under apps/, libs/, bench/ and tests/ with TypeScript's own import scanner
// (type-only imports count too: a circle in types is the same knot for a reader), resolves relative
// paths and the tsconfig's @fleet/* aliases, and reports every strongly connected group of files.
// Usage: node scripts/lint-import-cycles.mjs [root...] (default: the workspace). Exit 1 on a circle.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const repoRoot = resolve(dirname(new URL(import.meta.url).pathname), '..');
const roots = process.argv.length > 2 ? process.argv.slice(2) : ['apps', 'libs', 'bench', 'tests'];
const aliases = JSON.parse(readFileSync(join(repoRoot, 'tsconfig.base.json'), 'utf8')).compilerOptions.paths;

function sourceFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry) && !entry.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

function fileOf(base) {
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

function resolveImport(from, specifier) {
  if (specifier.startsWith('.')) return fileOf(resolve(dirname(from), specifier));
  const target = aliases[specifier]?.[0];
  return target ? fileOf(join(repoRoot, target).replace(/\.ts$/, '')) : undefined;
}

const files = roots.flatMap((root) => sourceFiles(resolve(repoRoot, root)));
const edges = new Map(
  files.map((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.map(({ fileName }) => resolveImport(file, fileName)).filter(Boolean);
    return [file, [...new Set(targets)]];
  }),
);

// Tarjan's strongly connected components, iterative (no recursion limit on long chains).
const index = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
const circles = [];
let counter = 0;
for (const start of edges.keys()) {
  if (index.has(start)) continue;
  const work = [[start, 0]];
  index.set(start, counter);
  low.set(start, counter++);
  stack.push(start);
  onStack.add(start);
  while (work.length) {
    const frame = work[work.length - 1];
    const [node, next] = frame;
    const targets = edges.get(node) ?? [];
    if (next < targets.length) {
      frame[1] += 1;
      const target = targets[next];
      if (!edges.has(target)) continue;
      if (!index.has(target)) {
        index.set(target, counter);
        low.set(target, counter++);
        stack.push(target);
        onStack.add(target);
        work.push([target, 0]);
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
      continue;
    }
    work.pop();
    if (work.length) {
      const parent = work[work.length - 1][0];
      low.set(parent, Math.min(low.get(parent), low.get(node)));
    }
    if (low.get(node) === index.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || (edges.get(node) ?? []).includes(node)) circles.push(group);
    }
  }
}

if (circles.length) {
  for (const group of circles) {
    process.stderr.write(
      `import circle:\n${group.map((file) => `  ${relative(repoRoot, file)}`).join('\n')}\n`,
    );
  }
  process.exit(1);
}
process.stdout.write(`import circles: none among ${files.length} files\n`);
