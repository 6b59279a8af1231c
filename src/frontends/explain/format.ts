import type { Explanation, PodExplanation } from './explain';
import type { AttachWait } from './volume-attach';

/** The text `terminating explain` prints: per pod what holds it, what happens next, what releases it and at what risk. */
export function formatExplanation(e: Explanation): string {
  const out = [
    `objects read at ${e.now} (T+0); Kubernetes ${e.release}; run forward up to ${e.horizon} on the virtual clock`,
  ];
  if (e.assumptions.length > 0) out.push('assumed:', ...e.assumptions.map((a) => `  - ${a}`));
  if (e.pods.length === 0) out.push('', 'no pod is Terminating, and none was deleted during the run');
  for (const p of e.pods) out.push('', ...formatPod(p));
  for (const w of e.attachWaits ?? []) out.push('', ...formatAttachWait(w));
  return `${out.join('\n')}\n`;
}

/** X20 — a pod whose volume another node holds, laid out as a pod's causes are. */
export function formatAttachWait(w: AttachWait): string[] {
  return [
    `pod ${w.namespace}/${w.name} (node ${w.node ?? 'none'}) cannot attach volume ${w.volume} (claim ${w.claim})`,
    `  volume-attachment: VolumeAttachment ${w.attachment} holds it on node ${w.heldOn}`,
    ...w.evidence.map((e) => `    evidence: ${e}`),
    `    next: detached ${w.detach}`,
    ...w.remedies.flatMap((r) => [`    to release it, ${r.action}:`, `      ${r.command}`, `      risk: ${r.risk}`]),
  ];
}
function formatPod(p: PodExplanation): string[] {
  const found = p.stuck
    ? `still there at the end of the run (kubectl get pod: ${p.kubectlStatus})`
    : `gone at ${p.goneAt}`;
  const out = [
    `pod ${p.namespace}/${p.name} (node ${p.node ?? 'none'})`,
    `  the objects show: phase ${p.shown.phase ?? 'unknown'}, deletionTimestamp ${p.deletionTimestamp}, grace ${p.deletionGracePeriodSeconds}s; ${p.shown.overdue}`,
    `  the run finds: ${found}`,
  ];
  if (p.contradiction) out.push(`  ${p.contradiction}`);
  for (const c of p.causes) {
    out.push(`  ${c.cause}: ${c.detail}`);
    for (const e of c.evidence ?? []) out.push(`    evidence: ${e}`);
    out.push(`    next: ${c.next}`);
    for (const r of c.remedies)
      out.push(
        `    to release it, ${r.action}:`,
        `      ${r.command}`,
        `      risk: ${r.risk}`,
        ...(r.checked ? [`      checked: ${r.checked}`] : []),
      );
  }
  return out;
}
