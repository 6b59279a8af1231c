import type {
  CSIDriver,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  VolumeAttachment,
} from '../../apimachinery/types';
import {
  DEFAULT_ATTACH_DETACH_CONFIG,
  TAINT_OUT_OF_SERVICE,
} from '../../components/controllers/volume/attachdetach/attach-detach-controller';
import { formatDuration, formatOffset } from '../../foundation/timeline/time';
import type { Release } from '../../foundation/release';
import { attachableVolume, isPodTerminated, podClaimNames } from '../../helpers/volume-util';
import type { DumpObject } from '../../planning/restore/dump';
import type { Remedy } from './causes';

/**
 * X20 — a pod that cannot start because its ReadWriteOnce volume is still attached to another node
 * (`Multi-Attach error for volume …`): from the objects read (pods, nodes, PersistentVolumes,
 * claims, CSIDrivers, VolumeAttachments, Events), which VolumeAttachment holds it, on which node,
 * for which old pod, and when the attach/detach controller will let go — by the rules of its
 * reconciler (pkg/controller/volume/attachdetach/reconciler/reconciler.go reconcile, P12, P13):
 *
 * - while an old pod using the volume on that node is still in the controller's desired state (not
 *   terminal, its object not removed: a pod Terminating on a lost node still shows its containers
 *   running) nothing detaches it, and the 6 minutes have not started;
 * - once it has left, the volume is detached as soon as the node's kubelet no longer reports it in
 *   `status.volumesInUse`, or by force 6 minutes (maxWaitForUnmountDuration) after it left — only
 *   from a node that is not Ready (kubernetes#110721);
 * - a node tainted `node.kubernetes.io/out-of-service` has it detached at once
 *   (NodeOutOfServiceVolumeDetach, β on 1.26, GA 1.28), and pod GC force-deletes the node's
 *   terminating pods first.
 *
 * The simulation does not resume the storage kinds yet (X15: they are evidence), so this is read
 * from the objects, not from the run; when the old pod left is not in the objects, it is taken as
 * no later than the waiting pod's creation when both belong to one StatefulSet (its controller
 * creates the replacement only once the old pod is gone).
 */
export interface AttachWait {
  namespace: string;
  /** The pod that waits for the volume. */
  name: string;
  node?: string;
  /** The PersistentVolume (VOLUME of the Events) and the claim it came through. */
  volume: string;
  claim: string;
  /** The VolumeAttachment that holds the volume on the other node. */
  attachment: string;
  attacher?: string;
  heldOn: string;
  /** What the objects show about it, one line each (the node's state, the old pods, the Event). */
  evidence: string[];
  /** When the volume will be detached (T+… from the time the objects were read), or what it waits for. */
  detach: string;
  remedies: Remedy[];
}

const MAX_WAIT_MS = DEFAULT_ATTACH_DETACH_CONFIG.maxWaitForUnmountMs;

type Objects = {
  pods: Pod[];
  nodes: Map<string, Node>;
  claims: Map<string, PersistentVolumeClaim>;
  volumes: Map<string, PersistentVolume>;
  drivers: Map<string, CSIDriver>;
  attachments: VolumeAttachment[];
  events: { involved?: { kind?: string; name?: string; namespace?: string }; reason?: string; message?: string }[];
};

function index(objects: readonly DumpObject[]): Objects {
  const of = <T>(kind: string) => objects.filter((o) => o.kind === kind).map((o) => o.obj as unknown as T);
  const byName = <T extends { metadata: { name?: string; namespace?: string } }>(kind: string, namespaced = false) =>
    new Map(
      of<T>(kind).map((o) => [
        namespaced ? `${o.metadata.namespace ?? 'default'}/${o.metadata.name}` : o.metadata.name!,
        o,
      ]),
    );
  return {
    pods: of<Pod>('Pod'),
    nodes: byName<Node>('Node'),
    claims: byName<PersistentVolumeClaim>('PersistentVolumeClaim', true),
    volumes: byName<PersistentVolume>('PersistentVolume'),
    drivers: byName<CSIDriver>('CSIDriver'),
    attachments: of<VolumeAttachment>('VolumeAttachment'),
    events: of<{
      involvedObject?: { kind?: string; name?: string; namespace?: string };
      regarding?: { kind?: string; name?: string; namespace?: string };
      reason?: string;
      message?: string;
      note?: string;
    }>('Event').map((e) => ({
      involved: e.involvedObject ?? e.regarding,
      reason: e.reason,
      message: e.message ?? e.note,
    })),
  };
}

const nodeReady = (node: Node | undefined): boolean =>
  node?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** The pods that wait for a volume another node holds, each with what holds it and when it will be let go. */
export function attachWaits(objects: readonly DumpObject[], t0: number, release: Release): AttachWait[] {
  const o = index(objects);
  if (o.attachments.length === 0) return [];
  const out: AttachWait[] = [];
  for (const pod of o.pods) {
    const node = pod.spec?.nodeName;
    // A pod that is going, or that runs, waits for nothing here.
    if (!node || pod.metadata.deletionTimestamp || isPodTerminated(pod) || pod.status?.phase === 'Running') continue;
    const ns = pod.metadata.namespace ?? 'default';
    for (const claimName of podClaimNames(pod)) {
      const claim = o.claims.get(`${ns}/${claimName}`);
      const pv = claim?.spec?.volumeName ? o.volumes.get(claim.spec.volumeName) : undefined;
      const volume = attachableVolume(claim, pv, (d) => o.drivers.get(d));
      if (!volume || volume.multiAttach) continue;
      for (const va of o.attachments) {
        if (va.spec?.source?.persistentVolumeName !== volume.pv || va.spec.nodeName === node) continue;
        out.push(explainHold(o, pod, claimName, volume.pv, volume.unique, va, t0, release));
      }
    }
  }
  return out;
}

function explainHold(
  o: Objects,
  pod: Pod,
  claim: string,
  pv: string,
  unique: string,
  va: VolumeAttachment,
  t0: number,
  release: Release,
): AttachWait {
  const ns = pod.metadata.namespace ?? 'default';
  const heldOn = va.spec!.nodeName!;
  const node = o.nodes.get(heldOn);
  const ready = nodeReady(node);
  const condition = node?.status?.conditions?.find((c) => c.type === 'Ready');
  const taints = node?.spec?.taints ?? [];
  const outOfServiceModelled = release.enabled('NodeOutOfServiceVolumeDetach');
  const outOfService = outOfServiceModelled && taints.some((t) => t.key === TAINT_OUT_OF_SERVICE);
  const inUse = (node?.status?.volumesInUse ?? []).includes(unique);
  const evidence: string[] = [
    `VolumeAttachment ${va.metadata.name} (attacher ${va.spec?.attacher}) says ${pv} is ${va.status?.attached ? 'attached' : 'not yet attached'} to node ${heldOn}${va.metadata.deletionTimestamp ? `; its detach was requested at ${va.metadata.deletionTimestamp}` : ''}`,
    node
      ? `node ${heldOn} is ${ready ? 'Ready' : `not Ready (Ready ${condition?.status ?? 'absent'}${condition?.reason ? `, ${condition.reason}` : ''}${condition?.lastTransitionTime ? ` since ${condition.lastTransitionTime}` : ''})`}${taints.length ? `, tainted ${taints.map((t) => `${t.key}:${t.effect}`).join(', ')}` : ''}; its kubelet ${inUse ? 'last reported the volume in use (status.volumesInUse)' : 'does not report the volume in use'}`
      : `node ${heldOn} is not in the objects`,
  ];
  const multiAttach = o.events.find(
    (e) =>
      e.reason === 'FailedAttachVolume' &&
      e.involved?.name === pod.metadata.name &&
      (e.involved?.namespace ?? ns) === ns &&
      e.message?.includes('Multi-Attach error'),
  );
  if (multiAttach) evidence.push(`Event FailedAttachVolume on pods/${pod.metadata.name}: ${multiAttach.message}`);
  // The old pods: on that node, through a claim bound to the same volume.
  const users = o.pods.filter(
    (p) =>
      p !== pod &&
      p.spec?.nodeName === heldOn &&
      podClaimNames(p).some((c) => o.claims.get(`${p.metadata.namespace ?? 'default'}/${c}`)?.spec?.volumeName === pv),
  );
  const desired = users.filter((p) => !isPodTerminated(p));
  for (const p of users)
    evidence.push(
      `pods/${p.metadata.name} on ${heldOn} uses it: ${p.metadata.deletionTimestamp ? `Terminating since ${p.metadata.deletionTimestamp}` : `phase ${p.status?.phase ?? 'unknown'}`}${isPodTerminated(p) ? ' (terminated: out of the desired state)' : ', its containers shown running (still in the desired state)'}`,
    );
  if (users.length === 0) evidence.push(`no pod on ${heldOn} uses it any more in the objects: the old pod has left`);

  const taintCommand = `kubectl taint node ${heldOn} ${TAINT_OUT_OF_SERVICE}=nodeshutdown:NoExecute`;
  const taintRemedy: Remedy = {
    action: `taint node ${heldOn} out-of-service, only if it is really off (the volume is detached at once${desired.length ? ', once pod GC has force-deleted the old pod' : ''})`,
    command: taintCommand,
    risk: 'data corruption if the node still runs and writes to the volume; remove the taint once the node is back',
  };
  let detach: string;
  const remedies: Remedy[] = [];
  if (outOfService) {
    detach = `at once: node ${heldOn} is tainted out-of-service (NodeOutOfServiceVolumeDetach)${desired.length ? `, once pod GC has force-deleted ${desired.map((p) => `pods/${p.metadata.name}`).join(', ')}` : ''}`;
  } else if (desired.length > 0) {
    const names = desired.map((p) => `pods/${p.metadata.name}`).join(', ');
    detach = ready
      ? `when ${names} has stopped and the kubelet of ${heldOn} has unmounted it (a healthy node is never detached by force)`
      : `never as things stand: ${names} is still in the attach/detach controller's desired state on a node that is not Ready, so the 6 minutes (maxWaitForUnmountDuration) have not started`;
    if (!ready) {
      for (const p of desired)
        remedies.push({
          action: `force-delete pods/${p.metadata.name} (the 6 minutes start then: the volume is detached by force ${formatDuration(MAX_WAIT_MS)} later)`,
          command: `kubectl delete pod ${p.metadata.name} -n ${p.metadata.namespace ?? 'default'} --grace-period=0 --force`,
          risk: 'its containers may still run on the lost node; the new pod attaches the volume 6 minutes later',
        });
      if (outOfServiceModelled) remedies.push(taintRemedy);
    }
  } else if (!inUse) {
    detach = `now: the kubelet of ${heldOn} does not report it in use, so the controller detaches it without waiting`;
  } else if (ready) {
    detach = `when the kubelet of ${heldOn} has unmounted it (it still reports it in use; a Ready node is never detached by force)`;
  } else {
    const left = leftAt(pod, users);
    detach = left
      ? `by force at ${formatOffset(left.ms + MAX_WAIT_MS - t0)} at the latest: ${formatDuration(MAX_WAIT_MS)} (maxWaitForUnmountDuration) after the old pod left, which was no later than ${left.what}`
      : `by force ${formatDuration(MAX_WAIT_MS)} (maxWaitForUnmountDuration) after the old pod left (the objects do not show when)`;
    if (outOfServiceModelled) remedies.push(taintRemedy);
  }
  return {
    namespace: ns,
    name: pod.metadata.name!,
    node: pod.spec?.nodeName,
    volume: pv,
    claim,
    attachment: va.metadata.name!,
    attacher: va.spec?.attacher,
    heldOn,
    evidence,
    detach,
    remedies,
  };
}

/**
 * When the old pod left the desired state, as far as the objects tell: a terminated old pod's
 * last container end; else, for a StatefulSet's pod, its own creation (the set creates a pod of a
 * name only once the previous one is gone).
 */
function leftAt(pod: Pod, users: readonly Pod[]): { ms: number; what: string } | undefined {
  const ends = users.flatMap((p) =>
    (p.status?.containerStatuses ?? []).flatMap((s) => {
      const at = s.state?.terminated?.finishedAt;
      return at
        ? [{ ms: Date.parse(String(at)), what: `pods/${p.metadata.name}'s containers ended (${String(at)})` }]
        : [];
    }),
  );
  if (ends.length > 0) return ends.reduce((a, b) => (b.ms > a.ms ? b : a));
  const owner = pod.metadata.ownerReferences?.find((r) => r.controller);
  if (owner?.kind === 'StatefulSet' && pod.metadata.creationTimestamp)
    return {
      ms: Date.parse(String(pod.metadata.creationTimestamp)),
      what: `pods/${pod.metadata.name}'s creation (${String(pod.metadata.creationTimestamp)}): its StatefulSet creates it only once the old pod of that name is gone`,
    };
  return undefined;
}
