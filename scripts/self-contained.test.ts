import { describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(__dirname, '..');

/**
 * Documents that live outside this repository, which a person who clones it does not have: the
 * rules are in docs/rules/, the vocabulary and the canonical events in docs/steps.md.
 */
export const OUTSIDE_REFERENCES: readonly RegExp[] = [
  /\.\.\/shared\b/,
  /\/work\/shared\b/,
  /\bdesign\.md\b/,
  /\b(?:apiserver|kubelet)-semantics(?:\.md)?\b/,
  /\btoolchain\.md\b/,
];

/** Each line of a text that points outside the repository, as `file:line: text`. */
export function outsideReferences(file: string, text: string): string[] {
  return text
    .split(/\r?\n/)
    .flatMap((line, i) => (OUTSIDE_REFERENCES.some((re) => re.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

function repositoryFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out
    .split('\0')
    .filter((f) => f !== '' && f !== 'package-lock.json' && !/\.(png|jpe?g|gif|ico|svg|pdf)$/.test(f));
}

describe('the repository stands on its own', () => {
  it('no file refers to documents outside it (the shared notes, the design document)', () => {
    const found = repositoryFiles().flatMap((file) => {
      let text: string;
      try {
        text = readFileSync(path.join(ROOT, file), 'utf8');
      } catch {
        return []; // listed but deleted in the work tree
      }
      return outsideReferences(file, text);
    });
    expect(found, `point to docs/rules/*.md or docs/steps.md instead:\n${found.join('\n')}`).to.deep.equal([]);
  });

  it("recognises each kind of outside reference, and not the project's own docs", () => {
    // Written in pieces so that this file does not itself point outside.
    const lines = [
      `see ..${'/'}shared/k8s/x`,
      `From design${'.'}md:`,
      `kubelet-${'semantics'}.md §2`,
      `apiserver-${'semantics'} §F`,
      'docs/rules/versions.md',
      'docs/steps.md',
    ];
    expect(outsideReferences('f', lines.join('\n'))).to.deep.equal(lines.slice(0, 4).map((l, i) => `f:${i + 1}: ${l}`));
  });
});
