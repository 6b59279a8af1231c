/**
 * The code blocks of the user's documentation (README.md, docs/, the examples' READMEs), so that a
 * snippet that cannot be pasted fails the build (scripts/doc-snippets.test.ts runs them):
 *
 * - ```gherkin: a whole feature, run with the project's steps as written;
 * - ```sh, ```console, ```js: preceded by a marker saying who runs it —
 *   `<!-- snippet: run -->` (this test runs it with bash in a scratch folder, `npx terminating` being
 *   this clone's bin), `<!-- snippet: run against serve -->` (the same, with a served cluster's
 *   KUBECONFIG and `kubectl` the pinned real kubectl; the block's own `npx terminating serve …` line
 *   starts that server), `<!-- snippet: tested by FILE… -->` (each FILE runs it, and names the
 *   document), or `<!-- snippet: not run (REASON) -->` for the rare block that cannot run here.
 *
 * Blocks in other languages (yaml, text diagrams, output) are not commands and are not run; an
 * untagged block that starts like Gherkin must be tagged ```gherkin.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(__dirname, '..');

export interface Snippet {
  /** The document, relative to the repository, and the line of the opening fence. */
  file: string;
  line: number;
  lang: string;
  text: string;
  /** The marker's words after `snippet:`, or undefined when the block has none. */
  marker?: string;
}

/** The documents whose snippets a user may paste. */
export function documents(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md') && f !== 'steps.md')
    .map((f) => join('docs', f));
  const examples = readdirSync(join(ROOT, 'examples'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('README.md'))
    .map((f) => join('examples', f));
  return ['README.md', ...docs.sort(), ...examples.sort(), join('features', 'local', 'README.md')];
}

const MARKER = /^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$/;

export function snippets(file: string): Snippet[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const out: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++;
    const text = lines
      .slice(i + 1, end)
      .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
      .join('\n');
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const marker = before >= 0 ? MARKER.exec(lines[before])?.[1] : undefined;
    out.push({ file, line: i + 1, lang: open[2], text, ...(marker !== undefined ? { marker } : {}) });
    i = end;
  }
  return out;
}

export const COMMAND_LANGS = ['sh', 'bash', 'shell', 'console', 'js', 'mjs', 'ts'];

/** What is wrong with a block's marking, or undefined. */
export function markingError(s: Snippet): string | undefined {
  const where = `${s.file}:${s.line}`;
  if (s.lang === '' && /^\s*(Feature:|Scenario:|Given |When |Then )/.test(s.text))
    return `${where}: a Gherkin block without a language: tag it \`\`\`gherkin so it is run`;
  if (s.lang === 'gherkin' && s.marker !== undefined)
    return `${where}: a \`\`\`gherkin block is always run: remove its marker`;
  if (!COMMAND_LANGS.includes(s.lang)) return undefined;
  if (s.marker === undefined)
    return `${where}: a \`\`\`${s.lang} block needs a marker line before it: <!-- snippet: run -->, <!-- snippet: run against serve -->, <!-- snippet: tested by FILE -->, or <!-- snippet: not run (REASON) -->`;
  if (/^run( against serve)?$/.test(s.marker))
    return ['sh', 'bash', 'shell'].includes(s.lang)
      ? undefined
      : `${where}: only sh blocks can be run; a \`\`\`${s.lang} block is "tested by FILE"`;
  if (/^not run \(.{10,}\)$/.test(s.marker)) return undefined;
  const tested = /^tested by (\S+)/.exec(s.marker);
  if (!tested) return `${where}: unknown snippet marker "${s.marker}"`;
  let text: string;
  try {
    text = readFileSync(join(ROOT, tested[1]), 'utf8');
  } catch {
    return `${where}: the test it names, ${tested[1]}, does not exist`;
  }
  // The test names the document it runs blocks of, or the example files the marker names exist (the test runs those).
  const examples = /\(([^)]+)\)/.exec(s.marker)?.[1].split(/,\s*/) ?? [];
  const missing = examples.find((f) => {
    try {
      readFileSync(join(ROOT, f));
      return false;
    } catch {
      return true;
    }
  });
  if (missing) return `${where}: ${missing}, named in the marker, does not exist`;
  const doc = relative(ROOT, join(ROOT, s.file));
  if (examples.length === 0 && !text.includes(doc))
    return `${where}: ${tested[1]} does not name ${doc}: is it the test that runs this block?`;
  return undefined;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
}

/** The relative links of a document that lead nowhere: a missing file, or a heading the target does not have. */
export function brokenLinks(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target)) continue;
    const [path, anchor] = target.split('#');
    const resolved = path === '' ? join(ROOT, file) : join(ROOT, file, '..', path);
    let body: string;
    try {
      body = readFileSync(resolved, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EISDIR') continue;
      broken.push(`${file}: ${target} (no such file)`);
      continue;
    }
    if (anchor === undefined || !resolved.endsWith('.md')) continue;
    const anchors = [...body.replace(/```[\s\S]*?```/g, '').matchAll(/^#+ (.*)$/gm)].map((m) => anchorOf(m[1]));
    if (!anchors.includes(anchor)) broken.push(`${file}: ${target} (no heading #${anchor} there)`);
  }
  return broken;
}
