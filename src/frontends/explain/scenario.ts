import { stringify } from 'yaml';
import { ModelledWebhookCaller } from '../../apiserver/webhook/modelled-caller';
import { suspectStep } from './suspect-step';
import { ClusterPlan } from '../../planning/cluster-plan';
import type { Release } from '../../foundation/release';
import { newestTimestamp, type Dump, type DumpObject, type Obj } from '../../planning/restore/dump';
import { isWebhookConfiguration } from '../../planning/restore/unmodelled';
import { podVolumeSources } from '../../planning/restore/volume-sources';
import type { Cause } from './causes';
import { EXPLAIN_HORIZON_MS, explainForward, type Explanation, type PodExplanation } from './explain';

/**
 * X19 — `terminating explain --scenario OUT.feature`: a minimal scenario that reproduces each hold,
 * ready to attach to a bug report. Its objects are the held pod and what its explanation rests on
 * (its node and lease, its Events, its owners and dependents, the policies, webhook configurations
 * and volumes it names); a suspect the run could not model (X16) is made explicit as a behaviour
 * step (a webhook of the objects answering as the suspect would, a volume that hangs); and its
 * `Then what holds pod …` table is what the same objects and steps give when run here, so the
 * feature, run with cucumber, shows the same cause.
 */

const uidOf = (o: DumpObject) => (o.obj.metadata as { uid?: string } | undefined)?.uid;

/** The objects the hold of `pod` rests on, without managedFields; with the object that carries the newest time, so that T+0 stays when the objects were read. */
export function minimalObjects(
  dump: Dump,
  pod: PodExplanation,
  causes: readonly Cause[],
  extra: readonly DumpObject[],
): DumpObject[] {
  const self = dump.objects.find((o) => o.kind === 'Pod' && uidOf(o) === pod.uid);
  if (!self) return [];
  const refs = ((self.obj.metadata as Obj).ownerReferences ?? []) as { uid?: string }[];
  const aboutPod = (o: DumpObject) => {
    const about = (o.obj.involvedObject ?? o.obj.regarding) as
      | { kind?: string; name?: string; uid?: string; namespace?: string }
      | undefined;
    return (
      about?.kind === 'Pod' &&
      (about.uid ? about.uid === pod.uid : about.name === pod.name && (about.namespace ?? 'default') === pod.namespace)
    );
  };
  const volumes = podVolumeSources(self.obj as never, dump.objects);
  const wanted = (o: DumpObject): boolean =>
    o === self ||
    (o.kind === 'Node' && o.name === pod.node) ||
    (o.kind === 'Lease' && o.name === pod.node && o.namespace === 'kube-node-lease') ||
    (o.kind === 'Namespace' && o.name === pod.namespace) ||
    (o.kind === 'Event' && aboutPod(o)) ||
    refs.some((r) => r.uid !== undefined && r.uid === uidOf(o)) ||
    (o.kind === 'Pod' &&
      (((o.obj.metadata as Obj).ownerReferences ?? []) as { uid?: string }[]).some((r) => r.uid === pod.uid)) ||
    (causes.some((c) => c.cause === 'policy') &&
      (o.kind === 'ValidatingAdmissionPolicy' || o.kind === 'ValidatingAdmissionPolicyBinding')) ||
    (isWebhookConfiguration(o) &&
      causes.some((c) => c.cause === 'webhook' && c.detail.includes(`${o.kind} ${o.name}`))) ||
    (o.kind === 'PersistentVolumeClaim' && volumes.some((v) => v.claim === o.name) && o.namespace === pod.namespace) ||
    (o.kind === 'PersistentVolume' && volumes.some((v) => v.persistentVolume === o.name)) ||
    (o.kind === 'CSINode' && o.name === pod.node) ||
    extra.includes(o);
  const chosen = dump.objects.filter(wanted);
  // The newest time of the whole dump is T+0: keep an object that shows it.
  if (newestTimestamp(chosen.map((o) => o.obj)) !== dump.newestMs) {
    const carrier = dump.objects.find((o) => newestTimestamp([o.obj]) === dump.newestMs);
    if (carrier && !chosen.includes(carrier)) chosen.push(carrier);
  }
  return chosen.map((o) => {
    const { managedFields: _drop, ...metadata } = (o.obj.metadata ?? {}) as Obj;
    return { ...o, obj: { ...o.obj, metadata } };
  });
}

const q = (s: string) => JSON.stringify(s);

/** A Gherkin table cell: `|` and `\` escaped. */
const cell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** What a row names of a cause: its detail up to its first `,` `:` or ` (` (the finalizer, the configuration, the volume), with a suspect's rank kept (only a row that says suspect matches one). */
export function subject(detail: string): string {
  const rank = /^suspect \d+ of \d+: /.exec(detail)?.[0] ?? '';
  return `${rank}${detail
    .slice(rank.length)
    .split(/,|: | \(/)[0]
    .trim()}`;
}

export interface WrittenScenario {
  feature: string;
  /** Per pod: the causes the written scenario expects (what the same objects and steps give here). */
  pods: { name: string; causes: Cause[]; steps: string[] }[];
}

/** X19 — the feature for every pod still held (at the end of the run, or in the cluster when the run contradicts it). */
export function writeScenario(
  dump: Dump,
  explanation: Explanation,
  options: { release: Release; nowMs?: number },
): WrittenScenario {
  const held = explanation.pods.filter((p) => p.stuck || p.contradiction !== undefined);
  const out = [
    `# Written by \`terminating explain --scenario\` from ${dump.files.join(', ')} (objects read at ${explanation.now}, Kubernetes ${explanation.release}).`,
    '# Each scenario carries the objects a hold rests on; a suspect the objects support but the simulation does not',
    '# model is made explicit as a step after them. Run it in a checkout of terminating: npx cucumber-js THIS_FILE',
    `Feature: ${held.length === 1 ? `pod ${held[0].namespace}/${held[0].name} stays Terminating` : 'pods that stay Terminating'}, reproduced from the objects`,
  ];
  const pods: WrittenScenario['pods'] = [];
  for (const pod of held) {
    const top =
      pod.contradiction !== undefined ? pod.causes.find((c) => suspectStep(c, pod, dump) !== undefined) : undefined;
    const step = top ? suspectStep(top, pod, dump) : undefined;
    const objects = minimalObjects(dump, pod, pod.causes, []);
    const text = stringify(
      { apiVersion: 'v1', kind: 'List', items: objects.map((o) => o.obj), metadata: { resourceVersion: '' } },
      { lineWidth: 0 },
    );
    // What the written scenario gives: the same objects and steps, run here.
    const plan = new ClusterPlan(options.release);
    plan.objects({ ...dump, objects, newestMs: newestTimestamp(objects.map((o) => o.obj)) }, options.nowMs);
    let modelled: ModelledWebhookCaller | undefined;
    const caller = () => {
      if (!modelled) plan.cluster.apiserver.webhookCaller = modelled = new ModelledWebhookCaller();
      return modelled;
    };
    step?.apply(plan, caller);
    plan.start();
    const t0 = plan.cluster.clock.now();
    const got = explainForward(plan.cluster, {
      t0,
      horizonMs: EXPLAIN_HORIZON_MS,
      unmodelled: plan.restoredObjects?.unmodelled,
      objects,
    }).find((p) => p.uid === pod.uid);
    const causes = got?.causes ?? [];
    pods.push({ name: pod.name, causes, steps: step ? [step.text] : [] });
    out.push(
      '',
      `  Scenario: what holds pod ${pod.namespace}/${pod.name}${step ? ` (suspect made explicit: ${subject(top!.detail)})` : ''}`,
      `    Given Kubernetes ${explanation.release}`,
      '    And the objects:',
      '      """yaml',
      ...text
        .trimEnd()
        .split('\n')
        .map((l) => `      ${l}`),
      '      """',
      ...(step ? [`    And ${step.text}`] : []),
      `    Then what holds pod ${q(pod.name)} is:`,
      '      | cause | detail |',
      ...causes.map((c) => `      | ${c.cause} | ${cell(subject(c.detail))} |`),
    );
  }
  if (held.length === 0) out.push('', '  # No pod is held: nothing to reproduce.');
  return { feature: `${out.join('\n')}\n`, pods };
}
