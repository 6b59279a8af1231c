/**
 * `npm run lint` (and `npm test`, beside the tests): the import boundaries of src/ (scripts/layers.ts),
 * no source file over 800 lines (scripts/file-length.ts), Biome's linter and Biome's formatter on every source file (`npm run format -- FILE…` formats one,
 * `npm run format:all` the tree).
 *
 *   node --require ./scripts/ts-hook.js scripts/lint.ts
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileLengths, longFiles, MAX_LINES } from './file-length';
import { importGraph, violations } from './layers';

const ROOT = path.resolve(__dirname, '..');
const SOURCE = /\.(ts|js|cjs|mjs)$/;
const BIOME = require.resolve('@biomejs/biome/bin/biome');

/** The files Biome formats (biome.json `files.includes`), as git knows them, untracked new ones included. */
function sourceFiles(): string[] {
  const git = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const dirs = ['src/', 'steps/', 'scripts/', 'bench/', 'examples/', 'bin/'];
  return git.stdout
    .split('\n')
    .filter((f) => SOURCE.test(f) && (dirs.some((d) => f.startsWith(d)) || !f.includes('/')))
    .filter((f) => !f.startsWith('scripts/regexp-match-indices/') && existsSync(path.join(ROOT, f)));
}

function biome(args: string[]): number {
  const r = spawnSync(process.execPath, [BIOME, ...args], { cwd: ROOT, stdio: 'inherit' });
  return r.status ?? 1;
}

function main(): number {
  let failed = 0;
  const { files, edges } = importGraph(ROOT);
  const problems = violations(files, edges);
  for (const p of problems) process.stderr.write(`${p}\n`);
  process.stdout.write(`layers: ${files.length} modules, ${edges.length} imports, ${problems.length} violation(s)\n`);
  if (problems.length > 0) failed = 1;

  const sources = sourceFiles();
  const long = longFiles(fileLengths(ROOT, sources));
  for (const p of long) process.stderr.write(`${p}\n`);
  process.stdout.write(`file length: ${sources.length} files, ${long.length} over ${MAX_LINES} lines\n`);
  if (long.length > 0) failed = 1;

  if (biome(['lint', '--diagnostic-level=error', '.']) !== 0) failed = 1;

  if (sources.length > 0 && biome(['format', ...sources]) !== 0) {
    process.stderr.write('Format them with: npm run format -- FILE… (Biome, biome.json).\n');
    failed = 1;
  }
  return failed;
}

if (require.main === module) process.exit(main());
