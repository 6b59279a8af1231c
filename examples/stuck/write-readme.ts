import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { explainDump, type ExplainRun } from '../../src/frontends/explain/explain';
import { formatExplanation } from '../../src/frontends/explain/format';
import { readDumpFiles } from '../../src/planning/restore/dump';

/** What `terminating explain FILE` finds for one dump of the gallery. */
export function explainFile(file: string): ExplainRun {
  return explainDump(readDumpFiles([file]));
}

/**
 * The gallery's README.md: for each dump, its comment and what `terminating explain` prints for it,
 * without the assumptions and the remedies (the command shows them). gallery.test.ts checks that
 * README.md is what this writes (with `explain`, the explanations it has already checked, so each
 * dump is explained once):
 *
 *   node --require ./scripts/ts-hook.js examples/stuck/write-readme.ts
 */
const INTRO = `Each file is what \`kubectl get … -o yaml\` prints for a pod stuck (or only slow) in \`Terminating\`, or kept from starting by a volume another node still holds (X20); \`npx terminating explain FILE\` gives the explanation below (the assumptions and the remedies' commands left out here; \`gallery.test.ts\` checks every cause). One dump per cause, and real cases rebuilt from public threads (the \`issue-*\` files): the pod as the thread quotes it, the objects the thread establishes (a webhook configuration, an Event, a volume), the rest filled in as the objects would show it — each file's comment, repeated below, says what was quoted, what was filled in, and which thread (repository and issue number) established the cause. For the rebuilt cases whose holder the simulation does not model (a webhook's server, an NFS mount), the objects' own history is the evidence: the run releases the pod far sooner than the cluster did, so the run contradicts the cluster and names the suspects the objects support, ranked (X16).

`;

export function galleryReadme(dir: string = __dirname, explain: (file: string) => ExplainRun = explainFile): string {
  const out = ['# A stuck-pod gallery', '', INTRO, ''];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    // The file's leading comment, without the kubectl command that printed it: what it is, and for a rebuilt case how and from which thread.
    const comment = readFileSync(join(dir, file), 'utf8').split('\n');
    const lines = comment
      .slice(
        0,
        comment.findIndex((l) => !l.startsWith('#')),
      )
      .filter((l) => !l.startsWith('# kubectl'));
    const what = lines.map((l) => l.replace(/^# ?/, '')).join(' ');
    const text = formatExplanation(explain(join(dir, file)).explanation)
      .split('\n')
      .filter((l) => !/^ {6}|^ {4}to release|^ {2}- |^assumed:/.test(l))
      .join('\n');
    out.push(`## [${file}](${file})`, '', what, '', '```', text.trimEnd(), '```', '');
  }
  return out.join('\n');
}

if (require.main === module) writeFileSync(join(__dirname, 'README.md'), galleryReadme());
