import type { ApiServer, ClientIdentity } from '../apiserver/apiserver';
import { toTime } from '../apiserver/object';
import type { Node, Pod, Taint, Toleration } from '../apiserver/types';
import type { Clock, TimerHandle } from '../clock';
import type { Timeline } from '../timeline/timeline';

const SOURCE = 'pkg/controller/tainteviction/taint_eviction.go';
const IDENTITY: ClientIdentity = { name: 'taint-eviction-controller', component: 'nodelifecycle' };

function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect !== undefined && t.effect !== '' && t.effect !== taint.effect) return false;
  if (t.operator === 'Exists') return t.key === undefined || t.key === '' || t.key === taint.key;
  return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
}

/**
 * getMinTolerationTime over the tolerations that match the node's NoExecute taints: undefined if
 * some taint is not tolerated (evict now), Infinity if tolerated forever, else the seconds.
 */
export function minTolerationSeconds(tolerations: readonly Toleration[], taints: readonly Taint[]): number | undefined {
  let min = Number.POSITIVE_INFINITY;
  for (const taint of taints) {
    const used = tolerations.filter((t) => tolerates(t, taint));
    if (used.length === 0) return undefined;
    for (const t of used) if (t.tolerationSeconds !== undefined) min = Math.min(min, Math.max(0, t.tolerationSeconds));
  }
  return min;
}

/**
 * The taint eviction controller (split out of node lifecycle in v1.29; K47): when a node carries
 * NoExecute taints, each of its pods is deleted once its shortest matching toleration runs out —
 * first a DisruptionTarget condition, then a DELETE with empty options (the spec's grace).
 */
export class TaintEvictionController {
  private readonly scheduled = new Map<string, TimerHandle>();

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    private readonly api: ApiServer,
  ) {}

  start(): void {
    this.api.watch('nodes', undefined, {}, (e) => {
      if (e.type !== 'DELETED') this.handleNodeUpdate(e.object);
    });
  }

  /** handleNodeUpdate → processPodOnNode for every pod bound to the node. */
  private handleNodeUpdate(node: Node): void {
    const taints = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');
    const pods = this.api.list('pods', undefined, (p) => p.spec?.nodeName === node.metadata.name);
    for (const pod of pods.ok ? pods.object.items : []) this.processPodOnNode(pod, taints);
  }

  private processPodOnNode(pod: Pod, taints: readonly Taint[]): void {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    const cancel = () => {
      const t = this.scheduled.get(key);
      if (t) this.clock.cancel(t);
      this.scheduled.delete(key);
    };
    if (taints.length === 0) return cancel();
    if (pod.metadata.deletionTimestamp) return;
    const seconds = minTolerationSeconds(pod.spec?.tolerations ?? [], taints);
    if (seconds === Number.POSITIVE_INFINITY) return cancel();
    if (this.scheduled.has(key)) return;
    const delay = (seconds ?? 0) * 1000;
    this.timeline.record('nodelifecycle', `eviction of pods/${pod.metadata.name} scheduled in ${seconds ?? 0}s (NoExecute taint ${taints.map((t) => t.key).join(', ')})`, `${SOURCE} processPodOnNode`, { actor: IDENTITY.name });
    this.scheduled.set(key, this.clock.after(delay, () => this.addConditionAndDeletePod(pod)));
  }

  /** addConditionAndDeletePod: DisruptionTarget condition, then DELETE with no options. */
  private addConditionAndDeletePod(pod: Pod): void {
    const name = pod.metadata.name!;
    const ns = pod.metadata.namespace;
    this.scheduled.delete(`${ns}/${name}`);
    const current = this.api.get('pods', ns, name);
    if (!current.ok || current.object.metadata.uid !== pod.metadata.uid) return;
    this.timeline.record('nodelifecycle', `taint eviction pods/${name}: deleting due to NoExecute taint`, `${SOURCE} addConditionAndDeletePod`, { actor: IDENTITY.name });
    const condition = { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint', lastTransitionTime: toTime(this.clock.now()) };
    const conditions = [...(current.object.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'), condition];
    this.api.patch(IDENTITY, 'pods', ns, name, 'merge', { status: { conditions } }, { subresource: 'status' });
    this.api.delete(IDENTITY, 'pods', ns, name, {});
  }
}
