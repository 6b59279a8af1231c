import { Before, Given, Then, type DataTable } from '@cucumber/cucumber';
import { dirname, resolve } from 'node:path';
import { CAUSES, type CauseName } from '../../src/frontends/explain/causes';
import { explainForward, EXPLAIN_HORIZON_MS } from '../../src/frontends/explain/explain';
import { DumpError, readDump, readDumpFiles } from '../../src/planning/restore/dump';
import { formatAttachWait, formatExplanation } from '../../src/frontends/explain/format';
import { attachWaits } from '../../src/frontends/explain/volume-attach';
import type { ModelledWebhook } from '../../src/apiserver/webhook/modelled-caller';
import { callerOf } from './admission.steps';
import { ScenarioError, type TerminatingWorld } from '../support/world';

/** The feature file of each running scenario: `the objects in …` names files relative to it. */
const featureFiles = new WeakMap<TerminatingWorld, string>();

Before(function (this: TerminatingWorld, { pickle }) {
  featureFiles.set(this, pickle.uri);
});

/**
 * A real cluster's state, resumed: what `kubectl get pods,nodes,events,… -o yaml` (or `-o json`)
 * printed, from a file relative to the feature file. The objects keep their uid, timestamps,
 * finalizers, ownerReferences and status; virtual time starts at the newest time they show (so T+0
 * is when they were read, with no warm-up), each node already runs what its pods' status shows,
 * and every assumption (a pod mid-kill, an unreachable node, a volume that does not unmount) is on
 * the timeline. Steps after it change what was assumed (a container's SIGTERM behaviour, a
 * volume's unmount, a node that is unreachable). Comes before any other node or pod.
 */
Given('the objects in {string}', function (this: TerminatingWorld, path: string) {
  const file = resolve(dirname(featureFiles.get(this) ?? '.'), path);
  try {
    this.plan.objects(readDumpFiles([file]));
  } catch (e) {
    if (e instanceof DumpError) throw new ScenarioError(e.message);
    throw e;
  }
});

/**
 * The same, with the objects in the step's doc string (YAML or JSON, as kubectl get printed them):
 * a scenario that carries its own objects, as `terminating explain --scenario` writes one.
 */
Given('the objects:', function (this: TerminatingWorld, text: string) {
  try {
    this.plan.objects(readDump([{ file: 'the objects of the step', text }]));
  } catch (e) {
    if (e instanceof DumpError) throw new ScenarioError(e.message);
    throw e;
  }
});

/** X18 — resumes the objects' webhook configuration holding this webhook, with the server a step describes. */
function resumeWebhook(world: TerminatingWorld, webhook: string, server: ModelledWebhook): void {
  try {
    world.plan.resumeWebhook(webhook);
  } catch (e) {
    if (e instanceof DumpError) throw new ScenarioError(e.message);
    throw e;
  }
  callerOf(world.cluster).serve(webhook, server);
}

/**
 * A webhook configuration of the objects (left out otherwise: its server is the real cluster's)
 * is resumed, and its webhook's server denies every request its rules send it, with the message
 * given (`admission webhook "NAME" denied the request: MESSAGE`).
 */
Given(
  'webhook {string} of the objects refuses the requests it intercepts with {string}',
  function (this: TerminatingWorld, webhook: string, message: string) {
    resumeWebhook(this, webhook, { rejects: message });
  },
);

/** The same, with no server behind it: each call fails, and failurePolicy Fail refuses the request. */
Given('webhook {string} of the objects is down', function (this: TerminatingWorld, webhook: string) {
  resumeWebhook(this, webhook, { down: true });
});

/**
 * The same, an injector: its server adds an init container of this name to every pod that lacks
 * it, on UPDATE too; the pod's update validation then refuses the whole UPDATE.
 */
Given(
  'webhook {string} of the objects adds init container {string} to pods',
  function (this: TerminatingWorld, webhook: string, container: string) {
    resumeWebhook(this, webhook, { addsInitContainer: container });
  },
);

/**
 * Runs the cluster forward (at most one virtual hour, like `terminating explain`) and checks what
 * held the pod: each row's `cause` (finalizer, policy, webhook, dependents, node-unreachable,
 * containers-running, volume-unmount, sandbox, nothing) must be one of the explanation's causes, and its
 * `detail` a substring of that cause's detail (the finalizer's, node's, container's or volume's
 * name …). Every cause of the explanation must be listed. A suspect (the run released the pod far
 * sooner than the cluster did, X16) is matched only by a row whose detail says `suspect` (e.g.
 * `suspect 1 of 2: MutatingWebhookConfiguration vault`). A mismatch prints the whole explanation.
 */
Then('what holds pod {string} is:', function (this: TerminatingWorld, name: string, table: DataTable) {
  const [header, ...rows] = table.raw();
  if (header.map((h) => h.trim()).join('|') !== 'cause|detail')
    throw new ScenarioError(`the table needs the columns | cause | detail |, got | ${header.join(' | ')} |`);
  for (const [cause] of rows) {
    if (!(CAUSES as readonly string[]).includes(cause.trim()))
      throw new ScenarioError(`unknown cause "${cause}": expected one of ${CAUSES.join(', ')}`);
  }
  const t0 = this.start;
  // Resumed objects: every version since they were stored counts (a pod released at T+0 is explained too, as explain does).
  const restored = this.plan.restoredObjects;
  const pods = explainForward(this.cluster, {
    t0,
    horizonMs: EXPLAIN_HORIZON_MS,
    unmodelled: restored?.unmodelled,
    objects: restored?.dump.objects,
    ...(restored ? { fromRevision: 0 } : {}),
  });
  const matching = pods.filter((p) => p.name === name);
  if (matching.length === 0)
    throw new ScenarioError(
      `pod "${name}" is not Terminating and was not deleted within an hour of now (explained: ${pods.map((p) => `"${p.name}"`).join(', ') || 'none'})`,
    );
  if (matching.length > 1)
    throw new ScenarioError(
      `${matching.length} pods named "${name}" (namespaces ${matching.map((p) => p.namespace).join(', ')})`,
    );
  const explained = matching[0];
  const text = formatExplanation({
    now: new Date(t0).toISOString(),
    release: String(this.plan.release),
    horizon: '1h',
    assumptions: [],
    pods: [explained],
  });
  const left = [...explained.causes];
  for (const [cause, detail] of rows) {
    // A suspect (X16: the run contradicts the cluster) is not an established cause: only a row that says "suspect" matches it.
    const i = left.findIndex(
      (c) =>
        c.cause === (cause.trim() as CauseName) &&
        c.detail.includes(detail.trim()) &&
        (!c.detail.startsWith('suspect ') || detail.includes('suspect')),
    );
    if (i < 0)
      throw new ScenarioError(
        `no cause "${cause.trim()}" with a detail containing "${detail.trim()}" holds pod "${name}":\n${text}`,
      );
    left.splice(i, 1);
  }
  if (left.length > 0)
    throw new ScenarioError(
      `pod "${name}" is also held by causes the table does not list (${left.map((c) => c.cause).join(', ')}):\n${text}`,
    );
});

/**
 * X20 — what `terminating explain` says of a pod of the objects that cannot start because its
 * ReadWriteOnce volume is still attached to another node: each row's `attachment` (the
 * VolumeAttachment's name or its start), `node` (where it holds the volume) and `detach` (when the
 * attach/detach controller lets go, T+… from the time the objects were read, or what it waits
 * for) are substrings of the explanation, one row per volume the pod waits for. Read from the
 * objects as they were read, not from the run. A mismatch prints the whole explanation.
 */
Then(
  'what keeps pod {string} from attaching its volume is:',
  function (this: TerminatingWorld, name: string, table: DataTable) {
    const [header, ...rows] = table.raw();
    if (header.map((h) => h.trim()).join('|') !== 'attachment|node|detach')
      throw new ScenarioError(
        `the table needs the columns | attachment | node | detach |, got | ${header.join(' | ')} |`,
      );
    const restored = this.plan.restoredObjects;
    if (!restored)
      throw new ScenarioError('no objects were resumed: start the scenario with  Given the objects in "FILE"');
    const waits = attachWaits(restored.dump.objects, this.start, this.plan.release).filter((w) => w.name === name);
    const text = waits.flatMap(formatAttachWait).join('\n');
    if (waits.length === 0)
      throw new ScenarioError(`pod "${name}" waits for no volume attached to another node in the objects`);
    const left = [...waits];
    for (const [attachment, node, detach] of rows) {
      const i = left.findIndex(
        (w) =>
          w.attachment.startsWith(attachment.trim()) && w.heldOn === node.trim() && w.detach.includes(detach.trim()),
      );
      if (i < 0)
        throw new ScenarioError(
          `no VolumeAttachment "${attachment.trim()}…" on node "${node.trim()}" detached "${detach.trim()}" keeps pod "${name}" waiting:\n${text}`,
        );
      left.splice(i, 1);
    }
    if (left.length > 0)
      throw new ScenarioError(`pod "${name}" also waits for volumes the table does not list:\n${text}`);
  },
);
