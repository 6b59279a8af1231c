import type { ApiClient } from '../../client/client';
import { Unreachable } from '../../client/client';
import type { Pod } from '../../apimachinery/types';
import type { Watch, WatchEvent } from '../../apiserver/watch';
import { jsonEqual } from '../../apimachinery/object';
import type { Timeline } from '../../foundation/timeline/timeline';

/** kubetypes.PodOperation: what the config source tells the syncLoop. */
export type PodOp = 'ADD' | 'UPDATE' | 'DELETE' | 'REMOVE' | 'RECONCILE';

export interface PodUpdate {
  op: PodOp;
  pod: Pod;
}

/** config.go Merge: the order in which one merge's ops reach the syncLoop. */
const OP_ORDER: readonly PodOp[] = ['REMOVE', 'ADD', 'UPDATE', 'DELETE', 'RECONCILE'];

/**
 * The kubelet's apiserver config source (pkg/kubelet/config/apiserver.go + config.go): a
 * reflector LIST+WATCHes the pods bound to this node, every watch event pushes the full snapshot
 * (UndeltaStore), and podStorage.merge diffs it by uid into ADD / UPDATE / DELETE / REMOVE /
 * RECONCILE ops (K9, K10).
 */
export class PodConfig {
  /** The reflector's store: the node's pods by namespace/name. */
  private readonly snapshot = new Map<string, Pod>();
  /** podStorage: what the kubelet was last told, by uid. */
  private readonly seen = new Map<string, Pod>();
  private watch?: Watch;
  private lastResourceVersion?: string;
  /** The source has delivered its first full list (config.go SeenAllSources / sourcesReady). */
  synced = false;

  constructor(
    private readonly client: ApiClient,
    private readonly timeline: Timeline,
    private readonly nodeName: string,
    private readonly deliver: (updates: PodUpdate[]) => void,
  ) {}

  /** reflector ListAndWatch: LIST, merge the snapshot, then WATCH from the list's resourceVersion. */
  start(): void {
    try {
      this.relist();
    } catch (e) {
      if (!(e instanceof Unreachable)) throw e;
    }
  }

  /** The connection dropped (node cut off): the watch ends, nothing more arrives. */
  disconnect(): void {
    this.watch?.stop();
    this.watch = undefined;
  }

  /**
   * The reflector reconnects: it resumes the watch from the last resourceVersion it saw (and is
   * replayed what it missed); if that revision was compacted away (410 Expired) it relists (K44).
   */
  reconnect(): void {
    if (this.lastResourceVersion === undefined) return this.start();
    const api = this.client.server;
    const w = api.watch(
      'pods',
      undefined,
      { resourceVersion: this.lastResourceVersion, nodeName: this.nodeName },
      (e) => this.onEvent(e),
    );
    if (w.ok) {
      this.timeline.record(
        'kubelet',
        `watch resumed from rv=${this.lastResourceVersion}`,
        'staging/src/k8s.io/client-go/tools/cache/reflector.go watch',
        { actor: this.nodeName },
      );
      this.watch = w.object;
      return;
    }
    this.timeline.record(
      'kubelet',
      `watch expired (${w.status.message}): relist`,
      'staging/src/k8s.io/client-go/tools/cache/reflector.go ListAndWatch',
      { actor: this.nodeName },
    );
    this.relist();
  }

  stop(): void {
    this.disconnect();
  }

  private relist(): void {
    const api = this.client.server;
    const list = api.list('pods', undefined, (p) => p.spec?.nodeName === this.nodeName);
    if (!list.ok) return;
    this.snapshot.clear();
    for (const p of list.object.items) this.snapshot.set(keyOf(p), p);
    this.lastResourceVersion = list.object.resourceVersion;
    this.synced = true;
    this.merge();
    const w = api.watch(
      'pods',
      undefined,
      { resourceVersion: this.lastResourceVersion, nodeName: this.nodeName },
      (e) => this.onEvent(e),
    );
    if (w.ok) this.watch = w.object;
  }

  private onEvent(e: WatchEvent<Pod>): void {
    this.lastResourceVersion = e.object.metadata.resourceVersion;
    const key = keyOf(e.object);
    const replaced = this.snapshot.get(key);
    if (e.type === 'DELETED') this.snapshot.delete(key);
    else this.snapshot.set(key, e.object);
    // The UndeltaStore pushes the whole snapshot, but only this entry changed: merging the entry it
    // touched gives the same ops as merging everything, without rescanning every pod of the node.
    const uid = e.object.metadata.uid!;
    const replacedUid = replaced?.metadata.uid;
    if (e.type !== 'DELETED' && (replacedUid === undefined || replacedUid === uid)) {
      // The usual event, a new copy of a pod under the same uid: one op at most (the pod merged is
      // in the snapshot, so it is not removed), built without the lists of the general merge.
      const update = this.mergePod(e.object);
      if (update !== undefined) this.send([update]);
      return;
    }
    const uids = replacedUid !== undefined && replacedUid !== uid ? [replacedUid, uid] : [uid];
    this.merge(e.type === 'DELETED' ? [] : [e.object], uids);
  }

  /** One snapshot entry against what the kubelet was told of its uid: the op it makes, if any. */
  private mergePod(pod: Pod): PodUpdate | undefined {
    const uid = pod.metadata.uid!;
    const old = this.seen.get(uid);
    this.seen.set(uid, pod);
    if (!old) return { op: 'ADD', pod };
    const op = checkAndUpdatePod(old, pod);
    return op ? { op, pod } : undefined;
  }

  /**
   * podStorage.merge (K10), per uid; then checkAndUpdatePod decides UPDATE, DELETE or RECONCILE.
   * `pods` are the snapshot entries to look at; `removable` the uids that may have left (all, by default).
   */
  private merge(
    pods: Iterable<Pod> = this.snapshot.values(),
    removable: Iterable<string> = [...this.seen.keys()],
  ): void {
    const updates: PodUpdate[] = [];
    for (const pod of pods) {
      const update = this.mergePod(pod);
      if (update !== undefined) updates.push(update);
    }
    // A uid is still there if the snapshot holds it under its name (every pod merged above does).
    for (const uid of removable) {
      const pod = this.seen.get(uid);
      if (!pod || this.snapshot.get(keyOf(pod))?.metadata.uid === uid) continue;
      this.seen.delete(uid);
      updates.push({ op: 'REMOVE', pod });
    }
    if (updates.length > 1) updates.sort((a, b) => OP_ORDER.indexOf(a.op) - OP_ORDER.indexOf(b.op));
    if (updates.length > 0) this.send(updates);
  }

  /** The merge's ops, recorded, to the syncLoop. */
  private send(updates: PodUpdate[]): void {
    for (const u of updates) {
      this.timeline.note(
        'kubelet',
        `${u.op} pods/${u.pod.metadata.name}`,
        'pkg/kubelet/config/config.go podStorage.merge',
        this.nodeName,
      );
    }
    this.deliver(updates);
  }
}

function keyOf(p: Pod): string {
  return `${p.metadata.namespace}/${p.metadata.name}`;
}

/**
 * config.go checkAndUpdatePod: a change to spec, labels, annotations or the deletion fields is an
 * UPDATE — or a DELETE when the pod carries a deletionTimestamp; a status-only change is a
 * RECONCILE; anything else (finalizers, resourceVersion) is no op at all.
 */
export function checkAndUpdatePod(old: Pod, next: Pod): PodOp | undefined {
  const a = old.metadata;
  const b = next.metadata;
  const same =
    jsonEqual(old.spec, next.spec) &&
    jsonEqual(a.labels, b.labels) &&
    jsonEqual(a.annotations, b.annotations) &&
    a.deletionTimestamp === b.deletionTimestamp &&
    a.deletionGracePeriodSeconds === b.deletionGracePeriodSeconds;
  if (!same) return b.deletionTimestamp !== undefined ? 'DELETE' : 'UPDATE';
  if (!jsonEqual(old.status, next.status)) return 'RECONCILE';
  return undefined;
}
