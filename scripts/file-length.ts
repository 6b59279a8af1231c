/**
 * The file-length check of `npm run lint`: no source file over MAX_LINES lines (issue 29). A long
 * file is a module doing several jobs; split it along its concepts (upstream's files are a good
 * guide) rather than raising the limit.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export const MAX_LINES = 800;

/**
 * Files allowed over the limit while a branch splits them, each with that branch: the lead
 * empties this list as the splits merge. Nothing is added to it otherwise.
 */
export const BEING_SPLIT: readonly { readonly file: string; readonly branch: string }[] = [];

/** The lines of a file's text (a final newline ends the last line; it does not start another). */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** One problem per file over the limit and not being split, naming the file, its length and the limit. */
export function longFiles(
  files: readonly { readonly file: string; readonly lines: number }[],
  max: number = MAX_LINES,
  beingSplit: readonly { readonly file: string }[] = BEING_SPLIT,
): string[] {
  const excepted = new Set(beingSplit.map((e) => e.file));
  return files
    .filter((f) => f.lines > max && !excepted.has(f.file))
    .map((f) => `${f.file}: ${f.lines} lines, over the limit of ${max}: split it along its concepts`);
}

/** The lengths of the files under `root`, by their paths relative to it. */
export function fileLengths(root: string, files: readonly string[]): { file: string; lines: number }[] {
  return files.map((file) => ({ file, lines: lineCount(readFileSync(path.join(root, file), 'utf8')) }));
}
