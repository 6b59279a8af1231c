import { Given, Then, When } from '@cucumber/cucumber';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  VolumeAttachment,
} from '../../src/apimachinery/types';
import { USER } from '../../src/cluster/cluster';
import { isObject, mergeManifest, parseYaml, podFromManifest } from '../../src/planning/manifest';
import { formatTimeline } from '../../src/foundation/timeline/text';
import { ScenarioError, type TerminatingWorld } from '../support/world';

/**
 * The storage vocabulary (docs/rules/storage.md): storage classes and the CSI drivers behind
 * them, claims, and where their volumes are attached. A volume is named by its PersistentVolume
 * (dynamically provisioned ones are `pvc-<claim uid>`), or as "the volume of claim NAME".
 */

function storageClass(name: string, provisioner: string): StorageClass {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'Immediate',
  };
}

/**
 * A StorageClass with volumeBindingMode Immediate and reclaimPolicy Delete whose volumes the CSI
 * driver provisions, and that driver installed: its CSIDriver (attachRequired), its node plugin on
 * every node, its external-provisioner and external-attacher (attach and detach take 3 s unless
 * said otherwise).
 */
Given(
  'a storage class {string} provisioned by CSI driver {string}',
  function (this: TerminatingWorld, name: string, driver: string) {
    this.planObject('storageclasses', storageClass(name, driver));
    this.plan.csiDriver(driver);
  },
);

/**
 * `Given a storageclass {string} with:` — served by the wider `a {word} {string} with:`
 * (custom-resources.steps.ts), which calls this: the doc string is a partial StorageClass (YAML)
 * merged over an Immediate, Delete one of that name; `provisioner` is required, and that CSI
 * driver is installed (e.g. `volumeBindingMode: WaitForFirstConsumer`, `reclaimPolicy: Retain`,
 * the default-class annotation).
 */
export function planStorageClassManifest(world: TerminatingWorld, name: string, manifest: string): void {
  const what = `the manifest of storageclass "${name}"`;
  const overlay = parseYaml(manifest, what);
  if (!isObject(overlay))
    throw new ScenarioError(
      `${what} must be a YAML mapping (e.g. provisioner: ebs.csi.aws.com), got ${JSON.stringify(overlay)}`,
    );
  if (typeof overlay.provisioner !== 'string' || overlay.provisioner === '')
    throw new ScenarioError(
      `${what} needs a provisioner: the CSI driver that provisions its volumes (e.g. provisioner: ebs.csi.aws.com)`,
    );
  world.planObject('storageclasses', mergeManifest(storageClass(name, overlay.provisioner), overlay) as StorageClass);
  world.plan.csiDriver(overlay.provisioner);
}

/** The driver's external-attacher takes that long to attach a volume (ControllerPublishVolume); more than 2 min makes the attach/detach controller's attach time out and retry. */
Given(
  'CSI driver {string} attaches volumes after {duration}',
  function (this: TerminatingWorld, driver: string, ms: number) {
    this.plan.csiDriver(driver, { attachMs: ms });
  },
);

/** The driver's external-attacher takes that long to detach a volume (ControllerUnpublishVolume). */
Given(
  'CSI driver {string} detaches volumes after {duration}',
  function (this: TerminatingWorld, driver: string, ms: number) {
    this.plan.csiDriver(driver, { detachMs: ms });
  },
);

/**
 * A PersistentVolumeClaim in namespace default: ReadWriteOnce, 1Gi, of that storage class,
 * created before T+0 (its volume is provisioned and bound during the warm-up).
 */
Given('a claim {string} of storage class {string}', function (this: TerminatingWorld, name: string, sc: string) {
  const claim: PersistentVolumeClaim = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default' },
    spec: { accessModes: ['ReadWriteOnce'], storageClassName: sc, resources: { requests: { storage: '1Gi' } } },
  };
  this.planObject('persistentvolumeclaims', claim);
});

/**
 * A PersistentVolume made by hand (static provisioning) of that storage class's CSI driver:
 * ReadWriteOnce, 1Gi, volume handle NAME, reserved for the claim of that name in namespace
 * default (spec.claimRef without a uid: the binder binds that claim to it once it exists), so the
 * timeline names the volume NAME instead of a generated `pvc-<uid>`.
 */
Given(
  'a volume {string} of storage class {string} reserved for claim {string}',
  function (this: TerminatingWorld, name: string, sc: string, claim: string) {
    const provisioner = this.plan.plannedObject('storageclasses', sc)?.provisioner;
    if (!provisioner)
      throw new ScenarioError(
        `storage class "${sc}" is not declared: declare it first with  Given a storage class "${sc}" provisioned by CSI driver "DRIVER"`,
      );
    const pv: PersistentVolume = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name },
      spec: {
        accessModes: ['ReadWriteOnce'],
        capacity: { storage: '1Gi' },
        storageClassName: sc,
        persistentVolumeReclaimPolicy: 'Retain',
        claimRef: { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace: 'default', name: claim },
        csi: { driver: provisioner, volumeHandle: name },
      },
    };
    this.planObject('persistentvolumes', pv);
  },
);

/**
 * Creates a pod with no node: kube-scheduler places it (for claims: after its VolumeBinding
 * checks, P17). The doc string is a partial pod manifest merged over the default pod.
 */
When('the user creates pod {string} with:', function (this: TerminatingWorld, pod: string, manifest: string) {
  this.ensureStarted();
  const created = this.cluster.apiserver.create(USER, 'pods', 'default', podFromManifest(pod, undefined, manifest));
  this.lastResponse = created;
  this.lastKubectl = undefined;
  if (created.ok) this.plan.userCreated(created.object);
  this.cluster.flush();
});

/** One DELETE of the claim with no options; returns at once (pvc-protection may keep it, Terminating). */
When('the user deletes claim {string}', function (this: TerminatingWorld, name: string) {
  this.ensureStarted();
  this.lastResponse = this.cluster.apiserver.delete(USER, 'persistentvolumeclaims', 'default', name, {});
  this.lastKubectl = undefined;
  this.cluster.flush();
});

function claimOf(world: TerminatingWorld, name: string): PersistentVolumeClaim | undefined {
  const got = world.cluster.apiserver.get('persistentvolumeclaims', 'default', name);
  return got.ok ? got.object : undefined;
}

function timeline(world: TerminatingWorld): string {
  return `Timeline from T+0:\n${formatTimeline(world.cluster.timeline.since(world.start), world.start)}`;
}

/** The PersistentVolume bound to the claim. */
function volumeOfClaim(world: TerminatingWorld, claim: string): string {
  const pvc = claimOf(world, claim);
  if (!pvc) throw new ScenarioError(`claim "${claim}" does not exist`);
  if (!pvc.spec?.volumeName)
    throw new Error(`claim "${claim}" is not bound to a volume (phase ${pvc.status?.phase}).\n${timeline(world)}`);
  return pvc.spec.volumeName;
}

/** The VolumeAttachments of a PersistentVolume whose status.attached is true (it stays true while a detach is under way). */
function attachedNodes(world: TerminatingWorld, pv: string): string[] {
  const list = world.cluster.apiserver.list(
    'volumeattachments',
    undefined,
    (va: VolumeAttachment) => va.spec?.source?.persistentVolumeName === pv && va.status?.attached === true,
  );
  return list.ok ? list.object.items.map((va) => va.spec!.nodeName).sort() : [];
}

function assertAttached(world: TerminatingWorld, pv: string, node: string, what: string): void {
  world.ensureStarted();
  world.cluster.node(node);
  const nodes = attachedNodes(world, pv);
  if (!nodes.includes(node))
    throw new Error(
      `${what} is not attached to node "${node}" (attached to: ${nodes.join(', ') || 'none'}).\n${timeline(world)}`,
    );
}

function assertNotAttached(world: TerminatingWorld, pv: string, what: string): void {
  world.ensureStarted();
  const nodes = attachedNodes(world, pv);
  if (nodes.length > 0)
    throw new Error(`${what} is still attached to ${nodes.map((n) => `node "${n}"`).join(', ')}.\n${timeline(world)}`);
}

/** A VolumeAttachment of that PersistentVolume to that node says status.attached: true. */
Then('volume {string} is attached to node {string}', function (this: TerminatingWorld, pv: string, node: string) {
  assertAttached(this, pv, node, `volume "${pv}"`);
});

/** No VolumeAttachment of that PersistentVolume says status.attached: true. */
Then('volume {string} is not attached to any node', function (this: TerminatingWorld, pv: string) {
  assertNotAttached(this, pv, `volume "${pv}"`);
});

/** The same for the PersistentVolume bound to the claim. */
Then(
  'the volume of claim {string} is attached to node {string}',
  function (this: TerminatingWorld, claim: string, node: string) {
    this.ensureStarted();
    assertAttached(this, volumeOfClaim(this, claim), node, `the volume of claim "${claim}"`);
  },
);

/** No VolumeAttachment of the PersistentVolume bound to the claim says status.attached: true. */
Then('the volume of claim {string} is not attached to any node', function (this: TerminatingWorld, claim: string) {
  this.ensureStarted();
  assertNotAttached(this, volumeOfClaim(this, claim), `the volume of claim "${claim}"`);
});

/** The claim's status.phase is Bound. */
Then('claim {string} is bound', function (this: TerminatingWorld, name: string) {
  this.ensureStarted();
  const pvc = claimOf(this, name);
  if (!pvc) throw new Error(`claim "${name}" does not exist.\n${timeline(this)}`);
  if (pvc.status?.phase !== 'Bound')
    throw new Error(`claim "${name}" is ${pvc.status?.phase ?? 'without a phase'}, not Bound.\n${timeline(this)}`);
});

/** The claim's status.phase is Pending. */
Then('claim {string} is pending', function (this: TerminatingWorld, name: string) {
  this.ensureStarted();
  const pvc = claimOf(this, name);
  if (!pvc) throw new Error(`claim "${name}" does not exist.\n${timeline(this)}`);
  if (pvc.status?.phase !== 'Pending')
    throw new Error(`claim "${name}" is ${pvc.status?.phase ?? 'without a phase'}, not Pending.\n${timeline(this)}`);
});

/** The claim is stored with a deletionTimestamp (a finalizer such as kubernetes.io/pvc-protection holds it). */
Then('claim {string} is terminating', function (this: TerminatingWorld, name: string) {
  this.ensureStarted();
  const pvc = claimOf(this, name);
  if (!pvc?.metadata.deletionTimestamp)
    throw new Error(`claim "${name}" is ${pvc ? 'not being deleted' : 'gone'}.\n${timeline(this)}`);
});

/** The claim is no longer stored. */
Then('claim {string} is gone', function (this: TerminatingWorld, name: string) {
  this.ensureStarted();
  const pvc = claimOf(this, name);
  if (pvc)
    throw new Error(
      `claim "${name}" still exists (finalizers ${JSON.stringify(pvc.metadata.finalizers ?? [])}).\n${timeline(this)}`,
    );
});
