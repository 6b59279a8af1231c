import { describe, it } from 'node:test';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { explainDump } from './explain';
import { readDump } from '../../planning/restore/dump';

const GALLERY = join(__dirname, '..', '..', '..', 'examples', 'stuck');

type Obj = Record<string, any>;
/** A gallery dump, changed in memory. */
function dumpOf(file: string, change: (items: Obj[]) => void = () => undefined) {
  const list = parse(readFileSync(join(GALLERY, file), 'utf8')) as { items: Obj[] };
  change(list.items);
  return readDump([{ file, text: stringify(list) }]);
}
const explain = (file: string, change?: (items: Obj[]) => void, options: { nowMs?: number; release?: never } = {}) =>
  explainDump(dumpOf(file, change), options).explanation.pods[0];
const causes = (p: ReturnType<typeof explain>) => p.causes.map((c) => [c.cause, c.detail.slice(0, 90)]);
const hookOf = (items: Obj[]) => items.find((i) => i.kind.endsWith('WebhookConfiguration'))!.webhooks[0];

describe("X16 the dump's own history is evidence (src/explain/evidence.ts)", () => {
  it("the bound is the run's own time to release the pod plus the longest wait of a modelled loop: read a minute after its deletionTimestamp, the NFS pod is only not gone yet", () => {
    const early = explain('issue-123960-nfs-unmount.yaml', undefined, { nowMs: Date.parse('2024-03-16T21:05:41Z') });
    expect(early.contradiction).to.equal(undefined);
    expect(early.causes.map((c) => c.cause)).to.deep.equal(['nothing']);
    const late = explain('issue-123960-nfs-unmount.yaml');
    expect(late.contradiction).to.match(
      /^the run contradicts the cluster: the run releases it at T\+1s, but the cluster kept it Terminating for 12h53m39s after its deletionTimestamp, longer than the modelled path needs from the state the objects show \(at most 2m3s: the run's own 1s plus the longest wait of a modelled loop, 2m2s\)/,
    );
    expect(late.shown).to.include({
      phase: 'Running',
      overdue: 'Terminating for 12h53m39s past its deletionTimestamp',
    });
  });

  it('never "nothing holds it" for such a pod: with no object to suspect, it is unexplained and says where to look', () => {
    const p = explain(
      'issue-123960-nfs-unmount.yaml',
      (items) => (items[0].spec.volumes = [{ name: 'data', emptyDir: {} }]),
    );
    expect(p.causes.map((c) => c.cause)).to.deep.equal(['nothing']);
    expect(p.causes[0].detail).to.match(/^unexplained: the run contradicts the cluster/);
    expect(p.causes[0].next).to.include("the kubelet's and the container runtime's logs on node k8s-worker-02");
  });

  it('webhooks are matched as the apiserver matches them: an objectSelector that leaves the pod out makes it no suspect', () => {
    const p = explain(
      'issue-121605-job-tracking-webhook.yaml',
      (items) => (hookOf(items).objectSelector = { matchLabels: { 'vault-inject': 'yes' } }),
    );
    expect(causes(p)).to.deep.equal([
      ['finalizer', 'suspect 1 of 1: finalizer batch.kubernetes.io/job-tracking: job-controller (kube-controlle'],
    ]);
  });

  it('… and a namespaceSelector, and matchConditions evaluated on the releasing UPDATE', () => {
    const byNamespace = explain(
      'issue-121605-job-tracking-webhook.yaml',
      (items) =>
        (hookOf(items).namespaceSelector = {
          matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['qa-lk-3900'] }],
        }),
    );
    expect(byNamespace.causes.map((c) => c.cause)).to.deep.equal(['finalizer']);
    const byCondition = explain(
      'issue-121605-job-tracking-webhook.yaml',
      (items) =>
        (hookOf(items).matchConditions = [
          { name: 'not-deleting', expression: '!has(object.metadata.deletionTimestamp)' },
        ]),
    );
    expect(byCondition.causes.map((c) => c.cause)).to.deep.equal(['finalizer']);
    const called = explain(
      'issue-121605-job-tracking-webhook.yaml',
      (items) => (hookOf(items).matchConditions = [{ name: 'pods', expression: "object.kind == 'Pod'" }]),
    );
    expect(called.causes[0].evidence).to.include(
      'its namespaceSelector and objectSelector match pod cron-job-dashmail-28306992-9dcql in namespace qa-lk-3900, and its matchConditions hold for that request',
    );
  });

  it("a webhook on the kubelet's requests (pods/status, DELETE) is a suspect for a pod the kubelet releases; a validating webhook with failurePolicy Fail ranks below a mutating one", () => {
    const p = explain('issue-kyverno-2750-webhook-down.yaml', (items) => {
      items.push({
        ...structuredClone(items[2]),
        kind: 'MutatingWebhookConfiguration',
        metadata: { name: 'injector' },
        webhooks: [
          {
            ...hookOf(items),
            name: 'inject.example.com',
            rules: [
              { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['pods/status'] },
            ],
          },
        ],
      });
    });
    expect(causes(p).map(([c, d]) => [c, d.split(':')[0] + ':' + d.split(':')[1]])).to.deep.equal([
      ['webhook', 'suspect 1 of 2: MutatingWebhookConfiguration injector'],
      ['webhook', 'suspect 2 of 2: ValidatingWebhookConfiguration kyverno-resource-validating-webhook-cfg'],
    ]);
  });

  it('a CSI volume whose driver has no node plugin on the node (its CSINode lacks it) ranks first, read through the claim and its PersistentVolume', () => {
    const p = explain('issue-123960-nfs-unmount.yaml', (items) => {
      items[0].spec.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'data-homes-0' } }];
      items.push(
        {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { name: 'data-homes-0', namespace: 'brad', uid: 'c1' },
          spec: { volumeName: 'pvc-c1' },
        },
        {
          apiVersion: 'v1',
          kind: 'PersistentVolume',
          metadata: { name: 'pvc-c1', uid: 'p1' },
          spec: { csi: { driver: 'efs.csi.aws.com', volumeHandle: 'fs-1' } },
        },
        {
          apiVersion: 'storage.k8s.io/v1',
          kind: 'CSINode',
          metadata: { name: 'k8s-worker-02', uid: 'n1' },
          spec: { drivers: [{ name: 'ebs.csi.aws.com', nodeID: 'i-1' }] },
        },
      );
    });
    expect(p.causes[0].cause).to.equal('volume-unmount');
    expect(p.causes[0].detail).to.equal(
      'suspect 1 of 1: volume data (CSI driver efs.csi.aws.com through claim data-homes-0 (volume pvc-c1)) may not unmount on node k8s-worker-02: CSI driver efs.csi.aws.com has no node plugin there',
    );
    expect(p.causes[0].evidence).to.include(
      'CSINode k8s-worker-02 does not list driver efs.csi.aws.com: its node plugin is gone from the node, so NodeUnpublishVolume cannot be called',
    );
  });

  it("X14 a sandbox whose network teardown fails: the kubelet's kill fails with KillPodSandbox and is retried, the pod stays", () => {
    const run = explainDump(dumpOf('issue-calico-7272-kill-pod-sandbox.yaml'));
    const events = run.plan.cluster.timeline
      .all()
      .filter((e) => /FailedKillPod|StopPodSandbox/.test(e.text) && !e.text.startsWith('assumed'))
      .map((e) => e.text);
    expect(events[0]).to.match(
      /^StopPodSandbox pods\/coredns-67b75cb4db-rvnxb failed: rpc error: code = Unknown desc = networkPlugin cni failed to teardown pod/,
    );
    expect(
      events.some((t) =>
        t.includes(
          'error killing pod: failed to "KillPodSandbox" for "11d141ef-59c9-49c8-99a7-0a42c6328d91" with KillPodSandboxError:',
        ),
      ),
    ).to.equal(true);
    expect(run.explanation.pods[0].causes.map((c) => c.cause)).to.deep.equal(['sandbox']);
  });
});
