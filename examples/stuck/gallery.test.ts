import { describe, it } from 'node:test';
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExplainRun } from '../../src/frontends/explain/explain';
import { explainFile, galleryReadme } from './write-readme';

/**
 * Each dump explained once: explain is a deterministic run of the dump, and its result is only read,
 * so the causes, the X20 waits and README.md are checked against the same explanation that
 * `terminating explain FILE` prints (each test still explains the dumps it needs when run alone).
 */
const explained = new Map<string, ExplainRun>();
function explain(file: string): ExplainRun {
  let run = explained.get(file);
  if (!run) explained.set(file, (run = explainFile(file)));
  return run;
}

/** Every dump of the gallery, with the causes `terminating explain` must name for each pod (README.md beside it shows the whole explanation). */
const EXPECTED: Record<string, Record<string, [string, string][]>> = {
  'finalizer.yaml': { 'report-7d9f': [['finalizer', 'reports.example.com/upload']] },
  'finalizer-running.yaml': { 'cart-6d8f9b7c5-h4jzp': [['finalizer', 'shop.example.com/release-reservations']] },
  'job-tracking.yaml': {
    'nightly-export-29153280-7kqfd': [
      ['nothing', 'job-controller removed finalizer batch.kubernetes.io/job-tracking at T+0s'],
    ],
  },
  'admission-policy.yaml': {
    'nightly-export-29153280-8mzrq': [
      ['finalizer', 'batch.kubernetes.io/job-tracking'],
      [
        'policy',
        "ValidatingAdmissionPolicy 'require-cost-center' with binding 'require-cost-center-all' denied request: every pod needs a cost-center label",
      ],
    ],
  },
  'webhook.yaml': {
    'mailer-84c6d9f7b5-tn4vx': [
      ['finalizer', 'mail.example.com/flush'],
      ['webhook', 'policy.example.com'],
    ],
  },
  'dependents.yaml': {
    coordinator: [['dependents', 'pods/coordinator-worker']],
    'coordinator-worker': [['finalizer', 'example.com/drain-queue']],
  },
  'node-unreachable.yaml': { 'db-0': [['node-unreachable', 'worker-3']] },
  'finalizer-node-unreachable.yaml': {
    'db-0': [
      ['finalizer', 'backup.example.com/snapshot'],
      ['node-unreachable', 'worker-3'],
    ],
  },
  // Force-deleted to grace 0: the node no longer matters, only the finalizer is listed (X11).
  'force-deleted-lost-node.yaml': { 'db-0': [['finalizer', 'backup.example.com/snapshot']] },
  'containers-running.yaml': {
    'checkout-5c7d8b9f6-x2kq9': [
      ['containers-running', 'checkout ran until T+18s (killed at the deadline: 18s of its grace were left)'],
    ],
  },
  'failed-kill-pod.yaml': { 'indexer-0': [['containers-running', 'indexer still runs']] },
  'volume-unmount.yaml': { 'ingest-6f4c9d7b8-q7w2m': [['volume-unmount', 'spool']] },
  'nothing.yaml': { 'web-7b9d5c6f4-mw8zt': [['nothing', 'gone at T+0.3s']] },
  'issue-65569-foreground.yaml': { 'webhook-test-79fbccfb66-dxk7f': [['dependents', 'foreground deletion']] },
  'issue-93925-grace.yaml': {
    'client21-cali-ns-0-bb6cb6fc6-w8f9w': [['containers-running', 'client ran until T+30s']],
  },
  // Rebuilt from threads that established the cause (X16): each must be explained with that cause, ranked first.
  'issue-121605-job-tracking-webhook.yaml': {
    'cron-job-dashmail-28306992-9dcql': [
      [
        'webhook',
        'suspect 1 of 2: MutatingWebhookConfiguration vault-agent-injector-cfg: webhook vault.hashicorp.com intercepts the UPDATE of pods that removes finalizer batch.kubernetes.io/job-tracking',
      ],
      ['finalizer', 'suspect 2 of 2: finalizer batch.kubernetes.io/job-tracking'],
    ],
  },
  'issue-kyverno-2750-webhook-down.yaml': {
    'kyverno-66447b5c94-9wc84': [
      [
        'webhook',
        'suspect 1 of 1: ValidatingWebhookConfiguration kyverno-resource-validating-webhook-cfg: webhook validate.kyverno.svc-fail',
      ],
    ],
  },
  'issue-123960-nfs-unmount.yaml': {
    'homes-0': [['volume-unmount', 'suspect 1 of 1: volume data (nfs nfs1.storage.server.com:/home/brad)']],
  },
  'issue-calico-7272-kill-pod-sandbox.yaml': {
    'coredns-67b75cb4db-rvnxb': [['sandbox', 'dial tcp 127.0.0.1:51111: connect: connection refused']],
  },
  'issue-containerd-8847-deadline-exceeded.yaml': {
    'worker-7c9f6d8b5d-m2xkq': [['containers-running', 'worker still runs: it survives SIGKILL']],
  },
  // No pod is Terminating: the new pod waits for its volume (X20, below).
  'issue-longhorn-1395-multi-attach.yaml': {},
};

/** X20 — the dumps with a pod kept from starting by a volume another node holds: pod → [attachment, node, when it is detached]. */
const ATTACH_WAITS: Record<string, Record<string, [string, string, string]>> = {
  'issue-longhorn-1395-multi-attach.yaml': {
    'test-sts-0': [
      'csi-24d91a51a3eaff9f4fe379d58cb0128d5ea56447427b3bd2093f8baec57a60a9',
      'worker-1',
      'by force at T+3m32s at the latest',
    ],
  },
};

describe('X9 the stuck-pod gallery (examples/stuck/): explain names the cause of every dump (finalizers X10, unreachable nodes X11, Events X6, admission policies X13, sandboxes X14, the history X16, volumes held by another node X20)', () => {
  it('has an expectation for every dump, and a dump for every expectation', () => {
    expect(
      readdirSync(__dirname)
        .filter((f) => f.endsWith('.yaml'))
        .sort(),
    ).to.deep.equal(Object.keys(EXPECTED).sort());
  });
  for (const [file, pods] of Object.entries(EXPECTED)) {
    it(file, () => {
      const { explanation } = explain(join(__dirname, file));
      const got = Object.fromEntries(
        explanation.pods.map((p) => [p.name, p.causes.map((c) => [c.cause, c.detail] as [string, string])]),
      );
      expect(Object.keys(got).sort()).to.deep.equal(Object.keys(pods).sort());
      for (const [pod, causes] of Object.entries(pods)) {
        expect(
          got[pod].map(([c]) => c),
          pod,
        ).to.deep.equal(causes.map(([c]) => c));
        causes.forEach(([, detail], i) => expect(got[pod][i][1], `${pod}: ${got[pod][i][0]}`).to.include(detail));
      }
    });
  }

  for (const [file, waits] of Object.entries(ATTACH_WAITS)) {
    it(`${file}: X20 the VolumeAttachment that holds the new pod's volume, and when it lets go`, () => {
      const { explanation } = explain(join(__dirname, file));
      const got = Object.fromEntries(
        (explanation.attachWaits ?? []).map((w) => [w.name, [w.attachment, w.heldOn, w.detach]]),
      );
      expect(Object.keys(got)).to.deep.equal(Object.keys(waits));
      for (const [pod, [attachment, node, detach]] of Object.entries(waits)) {
        expect(got[pod].slice(0, 2)).to.deep.equal([attachment, node]);
        expect(got[pod][2]).to.include(detach);
      }
    });
  }

  it('README.md is what write-readme.ts writes: for every dump, what explain prints (without the assumptions and the remedies)', () => {
    expect(readFileSync(join(__dirname, 'README.md'), 'utf8')).to.equal(galleryReadme(__dirname, explain));
  });
});
