import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { explainDump } from '../../src/frontends/explain/explain';
import { formatExplanation } from '../../src/frontends/explain/format';
import { readDumpFiles } from '../../src/planning/restore/dump';

/**
 * The gallery's README.md: for each dump, its comment and what `terminating explain` prints for it,
 * without the assumptions and the remedies (the command shows them). gallery.test.ts checks that
 * README.md is what this writes:
 *
 *   node --require ./scripts/ts-hook.js examples/stuck/write-readme.ts
 */
const INTRO = `Each file is what \`kubectl get … -o yaml\` prints for a pod stuck (or only slow) in \`Terminating\`, one per cause \`terminating explain\` names; \`npx terminating explain FILE\` gives the explanation below (the assumptions and the remedies' commands left out here; \`gallery.test.ts\` checks every cause). The two \`issue-*\` dumps are written from pods quoted in public issues: [kubernetes/kubernetes#65569](https://github.com/kubernetes/kubernetes/issues/65569) (a pod deleted in the foreground keeps \`foregroundDeletion\`: the simulated garbage collector removes it at once, since the pod has no dependents — so in the cluster of the issue the collector was not doing its job) and [kubernetes/kubernetes#93925](https://github.com/kubernetes/kubernetes/issues/93925) (a pod with a 30 s grace and a running container: from the object alone it is only not gone yet: whatever held it in the cluster of the issue shows in no field of the pod, which is what a forward run makes plain).`;

export function galleryReadme(dir: string = __dirname): string {
  const out = ['# A stuck-pod gallery', '', INTRO, ''];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort()) {
    const what = readFileSync(join(dir, file), 'utf8').split('\n')[1].replace(/^# /, '');
    const text = formatExplanation(explainDump(readDumpFiles([join(dir, file)])).explanation)
      .split('\n')
      .filter((l) => !/^ {6}|^ {4}to release|^ {2}- |^assumed:/.test(l))
      .join('\n');
    out.push(`## [${file}](${file})`, '', what, '', '```', text.trimEnd(), '```', '');
  }
  return out.join('\n');
}

if (require.main === module) writeFileSync(join(__dirname, 'README.md'), galleryReadme());
