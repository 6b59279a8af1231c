import type { Pod } from '../../apimachinery/types';
import { USER, type Cluster } from '../../cluster/cluster';
import type { ContainerBehaviour } from '../kubelet/runtime';
import { DEFAULT_BEHAVIOUR } from '../kubelet/runtime';

/**
 * For the workload controllers' unit tests: binds every pod created without a node to `node`
 * (pods/binding, as kube-scheduler would) and gives its containers the behaviour `behaviourOf`
 * returns for it, before the kubelet hears of the pod. Keeps the controllers' tests independent of
 * the scheduler's filters and scores.
 */
export function bindNewPods(
  c: Cluster,
  node: string | ((pod: Pod) => string),
  behaviourOf: (pod: Pod) => Partial<ContainerBehaviour> | undefined = () => undefined,
): void {
  c.apiserver.watch('pods', undefined, {}, (e) => {
    const pod = e.object;
    if (e.type !== 'ADDED' || pod.spec?.nodeName) return;
    const target = typeof node === 'string' ? node : node(pod);
    const behaviour = behaviourOf(pod);
    if (behaviour)
      for (const ct of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])])
        c.node(target).containerBehaviours.set(`${pod.metadata.uid} ${ct.name}`, {
          ...DEFAULT_BEHAVIOUR,
          ...behaviour,
        });
    c.apiserver.bind(
      { name: 'test-scheduler', component: 'user' },
      pod.metadata.namespace!,
      pod.metadata.name!,
      target,
    );
  });
}

/** The pods in `default`, in name order. */
export function podsNow(c: Cluster): Pod[] {
  const r = c.apiserver.list('pods', 'default');
  return r.ok ? r.object.items : [];
}

/** The timeline's texts of one component from `t0` on. */
export function eventsOf(c: Cluster, component: string, t0 = 0): string[] {
  return c.timeline
    .since(t0)
    .filter((e) => e.component === component)
    .map((e) => e.text);
}

export { USER };
