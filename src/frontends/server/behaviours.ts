import { invalid, type FieldError } from '../../apimachinery/errors';
import type { Pod } from '../../apimachinery/types';
import type { Cluster } from '../../cluster/cluster';
import { DEFAULT_BEHAVIOUR } from '../../components/kubelet/runtime';
import {
  behaviourAnnotations,
  behaviourProblem,
  parseBehaviour,
  type PodAnnotation,
} from '../../planning/pod-behaviours';

/**
 * R98 — the `terminating.sim/` behaviour annotations of pods written through the API (create,
 * update, apply, patch, Helm), as `serve --manifests` reads them from its file: how a container
 * answers SIGTERM, how long its preStop hook takes, how long a volume takes to unmount. They are
 * the simulation's, not Kubernetes': the simulated kubelet reads each from the pod it runs, by
 * uid, from the moment the apiserver stores the pod. An annotation that cannot take effect is
 * refused on create and update (422, as the manifest loader refuses it); one a patch makes
 * unusable is ignored.
 */
export function followBehaviourAnnotations(cluster: Cluster): void {
  cluster.apiserver.watch('pods', undefined, {}, (e) => {
    if (e.type !== 'DELETED') applyBehaviours(cluster, e.object);
  });
}

/**
 * How long a regular container of a pod with `restartPolicy: Never` or `OnFailure` runs when no
 * behaviour says otherwise: then it exits with code 0, so a Job created over the API (`kubectl
 * create job`, a cdk8s Job) completes. Pods that restart always run until they are stopped.
 */
export const SERVED_RUN_TO_COMPLETION_MS = 10_000;

function applyBehaviours(cluster: Cluster, pod: Pod): void {
  const annotations = behaviourAnnotations(pod.metadata.annotations);
  const node = pod.spec?.nodeName;
  if (!node || !pod.metadata.uid || !cluster.nodes.has(node)) return;
  const sim = cluster.node(node);
  const policy = pod.spec?.restartPolicy;
  if (policy === 'Never' || policy === 'OnFailure') {
    for (const c of pod.spec?.containers ?? []) {
      const key = `${pod.metadata.uid} ${c.name}`;
      if (!sim.containerBehaviours.has(key))
        sim.containerBehaviours.set(key, {
          ...DEFAULT_BEHAVIOUR,
          exitsOnItsOwn: 0,
          runsForMs: SERVED_RUN_TO_COMPLETION_MS,
        });
    }
  }
  if (annotations.length === 0) return;
  for (const a of annotations) {
    if (behaviourProblem(pod, a) !== undefined) continue;
    const parsed = parseBehaviour(a.what as PodAnnotation, a.value as string);
    const key = `${pod.metadata.uid} ${a.target}`;
    if ('volume' in parsed) sim.volumeBehaviours.set(key, parsed.volume);
    else
      sim.containerBehaviours.set(key, {
        ...(sim.containerBehaviours.get(key) ?? DEFAULT_BEHAVIOUR),
        ...parsed.container,
      });
  }
}

/** The behaviour annotations of a pod body that cannot take effect, as a 422 Invalid (create and update). */
export function checkBehaviourAnnotations(pod: Pod): void {
  const errs: FieldError[] = [];
  for (const a of behaviourAnnotations(pod.metadata.annotations)) {
    const problem = behaviourProblem(pod, a);
    if (problem !== undefined)
      errs.push({ field: `metadata.annotations[${a.key}]`, type: 'Invalid', value: a.value, detail: problem });
  }
  if (errs.length > 0) throw invalid('Pod', pod.metadata.name ?? '', errs);
}
