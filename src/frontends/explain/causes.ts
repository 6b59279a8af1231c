import type { Pod } from '../../apimachinery/types';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../../apimachinery/validation';
import type { Cluster } from '../../cluster/cluster';
import { TAINT_OUT_OF_SERVICE } from '../../components/controllers/pod-gc';
import type { DumpObject } from '../../planning/restore/dump';
import { formatOffset } from '../../foundation/timeline/time';
import type { RuntimeContainer } from '../../components/kubelet/runtime';
import type { Webhook } from '../../apiserver/webhook/configuration';
import {
  failedValidation,
  finalizerHolder,
  finalizerRemoval,
  policyDenial,
  webhookConditions,
  type ConditionsOutcome,
  type PolicyDenial,
} from './admission';

/**
 * What can hold a deleted pod . Each cause is found by one
 * detector over the forward run; a new cause (an admission webhook that rejects the UPDATE removing
 * a finalizer, once webhooks are modelled) is one more name here and one more detector in DETECTORS.
 */
export const CAUSES = [
  'finalizer',
  'policy',
  'webhook',
  'dependents',
  'node-unreachable',
  'containers-running',
  'volume-unmount',
  'sandbox',
  'nothing',
] as const;
export type CauseName = (typeof CAUSES)[number];

/** One way to release the pod: what to do, the exact command, and what it costs. */
export interface Remedy {
  action: string;
  command: string;
  risk: string;
  /** What trying it in a fork of the run showed (remedy-check.ts): it releases the pod, or what else must be done first. */
  checked?: string;
}

export interface Cause {
  cause: CauseName;
  /** What holds it, naming the thing (the finalizer, the node, the container, the volume). */
  detail: string;
  /** What happens next, and when (T+… from the time the objects were read). */
  next: string;
  remedies: Remedy[];
  /** A suspect's evidence (X16): what in the objects points to it, one line each. */
  evidence?: string[];
}

/** What a detector sees: the pod when the objects were read and at the end of the forward run. */
export interface PodRun {
  cluster: Cluster;
  /** Virtual time the objects were read (T+0). */
  t0: number;
  /** The pod at T+0. */
  before: Pod;
  /** The pod as the objects show it (the dump's own version; undefined for a pod the run created), for its history (X16). */
  shown?: Pod;
  /** The pod at the end of the run; undefined once it is gone. */
  after?: Pod;
  /** When it left the API (T+… counted from t0), if it did. */
  goneAtMs?: number;
  /** Objects of the dump the simulation does not store (webhook configurations, PersistentVolumes, …). */
  unmodelled: readonly DumpObject[];
  /** Every object of the dump (evidence: PersistentVolumes, claims, CSINodes, namespaces); empty for a planned cluster. */
  objects: readonly DumpObject[];
  /** Its containers that were running when it was first seen deleting (the runtime's records, updated in place). */
  running: readonly RuntimeContainer[];
}

export type Detector = (run: PodRun) => Cause[];

const at = (run: PodRun, ms: number): string => formatOffset(ms - run.t0);
const ns = (pod: Pod): string => pod.metadata.namespace ?? 'default';
const kubectlPod = (pod: Pod): string => `pod ${pod.metadata.name} -n ${ns(pod)}`;

/** The controller expected to remove a finalizer, by name: Kubernetes' own, or the domain that owns it. */
export function finalizerOwner(finalizer: string): string {
  const known: Record<string, string> = {
    'batch.kubernetes.io/job-tracking':
      "the Job controller (kube-controller-manager), once it has counted the pod in its Job's status (pkg/controller/job/job_controller.go)",
    [FINALIZER_FOREGROUND]: 'the garbage collector, once no dependent with blockOwnerDeletion is left',
    [FINALIZER_ORPHAN]: "the garbage collector, once it has removed this object from its dependents' ownerReferences",
  };
  if (known[finalizer]) return known[finalizer];
  const domain = finalizer.includes('/') ? finalizer.split('/')[0] : undefined;
  return domain
    ? `a controller of ${domain} (not part of Kubernetes: nothing in this cluster removes it)`
    : 'a controller outside Kubernetes (nothing in this cluster removes it)';
}

/** X12 — kubectl's risk when a force delete frees the name: the StatefulSet case named when the pod has one. */
function forceDelete(pod: Pod, why: string): Remedy {
  const sts = (pod.metadata.ownerReferences ?? []).find((r) => r.kind === 'StatefulSet');
  const statefulSet = sts
    ? ` StatefulSet ${sts.name} then creates a new ${pod.metadata.name} at once: two pods of one identity may run side by side (the same volume, the same network name).`
    : '';
  return {
    action: 'force delete it',
    command: `kubectl delete ${kubectlPod(pod)} --grace-period=0 --force`,
    risk: `frees the name at once while ${why}: the processes may still run and write.${statefulSet}`,
  };
}

/** X10 — finalizers left on the pod at the end of the run (foregroundDeletion is the dependents detector's). */
const finalizers: Detector = (run) => {
  const pod = run.after;
  if (!pod) return [];
  return (pod.metadata.finalizers ?? [])
    .filter((f) => f !== FINALIZER_FOREGROUND)
    .map((f, _, all) => {
      const index = (pod.metadata.finalizers ?? []).indexOf(f);
      return {
        cause: 'finalizer' as const,
        detail: `finalizer ${f}, to be removed by ${finalizerOwner(f)}`,
        next: `${'nothing removes it within the run: the pod stays'}${all.length > 1 ? ' until every finalizer is gone' : ''} (${pod.metadata.deletionGracePeriodSeconds === 0 ? 'the apiserver deletes it the moment the last finalizer goes, its deletionGracePeriodSeconds being 0' : `once the last finalizer goes it still waits for the kubelet's final DELETE, its deletionGracePeriodSeconds being ${pod.metadata.deletionGracePeriodSeconds}`})`,
        remedies: [
          {
            action: `remove the finalizer ${f}`,
            command: `kubectl patch ${kubectlPod(pod)} --type=json -p '${JSON.stringify(finalizerRemoval(index, f))}'`,
            risk: `skips whatever ${finalizerOwner(f).split(' (')[0].split(',')[0]} does before letting the pod go (its cleanup never runs for this pod)`,
          },
        ],
      };
    });
};

/**
 * X13 — ValidatingAdmissionPolicies (R210): the UPDATE that removes each finalizer left, as its
 * holder would send it (finalizerHolder), is tried on the resumed cluster as a server-side dry run
 * (admission runs, nothing is stored); a policy binding with the Deny action that fails it is named
 * with the Status message the holder gets, the validation that fails, and how often the run's own
 * writes were denied by it. The remedies change the policy or its binding; the finalizer's own
 * remedy fails with the same message until one of them is done.
 */
const policies: Detector = (run) => {
  const pod = run.after;
  const api = run.cluster.apiserver;
  if (!pod || !api.policies.has()) return [];
  const held = pod.metadata.finalizers ?? [];
  const denials = new Map<string, { denial: PolicyDenial; finalizers: string[]; holders: Set<string> }>();
  const mark = run.cluster.timeline.all().length;
  held.forEach((f, index) => {
    const holder = finalizerHolder(f);
    const r = api.patch(holder, 'pods', ns(pod), pod.metadata.name!, 'json', finalizerRemoval(index, f), {
      dryRun: true,
    });
    const denial = r.ok ? undefined : policyDenial(r.status.message, r.code);
    if (!denial) return;
    const key = `${denial.policy}\u0000${denial.binding}`;
    const seen = denials.get(key) ?? { denial, finalizers: [], holders: new Set<string>() };
    seen.finalizers.push(f);
    seen.holders.add(holder.name);
    denials.set(key, seen);
  });
  // The run's writes to this pod the same binding denied (its events on the admission lane, before the dry runs).
  const deniedInRun = (d: PolicyDenial) =>
    run.cluster.timeline
      .all()
      .slice(0, mark)
      .filter(
        (e) =>
          e.component === 'admission' &&
          e.text.startsWith(`policy ${d.policy} binding ${d.binding} denied UPDATE pods/${pod.metadata.name}:`),
      ).length;
  return [...denials.values()].map(({ denial: d, finalizers: fs, holders }) => {
    const policy = api.get('validatingadmissionpolicies', undefined, d.policy);
    const binding = api.get('validatingadmissionpolicybindings', undefined, d.binding);
    const failed = policy.ok ? failedValidation(policy.object, d.message) : undefined;
    const actions = binding.ok ? (binding.object.spec?.validationActions ?? []) : [];
    const times = deniedInRun(d);
    const validation = failed ? `its validation ${failed.expression}` : 'its validations';
    return {
      cause: 'policy' as const,
      detail: `ValidatingAdmissionPolicy ${d.policy} (binding ${d.binding}, validationActions ${actions.join(', ')}) denies the UPDATE that removes finalizer ${fs.join(', ')}: ${d.status}`,
      next: `the removal is refused with ${d.code} (tried as ${[...holders].join(', ')}, a dry run)${times > 0 ? `; during the run it was denied ${times} time${times > 1 ? 's' : ''}` : ''}; the finalizer's remedy is refused likewise until the policy admits it or the binding no longer denies`,
      remedies: [
        {
          action: `fix the policy ${d.policy}: ${validation} must admit an UPDATE that only removes a finalizer (or add a matchCondition that leaves pods being deleted alone, e.g. !has(object.metadata.deletionTimestamp))`,
          command: `kubectl edit validatingadmissionpolicy ${d.policy}`,
          risk: 'the policy then admits whatever the new expression admits, in every namespace its bindings match',
        },
        {
          action: `let the binding ${d.binding} only warn (validationActions Warn: the request is admitted with a warning)`,
          command: `kubectl patch validatingadmissionpolicybinding ${d.binding} --type=merge -p '{"spec":{"validationActions":["Warn"]}}'`,
          risk: `nothing ${d.policy} matches through ${d.binding} is denied any more, only warned about`,
        },
        {
          action: `delete the binding ${d.binding}`,
          command: `kubectl delete validatingadmissionpolicybinding ${d.binding}`,
          risk: `${d.policy} no longer applies through ${d.binding} (its other bindings still do); recreate it once the pod is gone`,
        },
      ],
    };
  });
};

/** A webhook with a rule for UPDATE of pods (admissionregistration.k8s.io/v1 RuleWithOperations; `*` matches all). */
function interceptsPodUpdates(hook: Webhook): boolean {
  return (hook.rules ?? []).some(
    (r) =>
      (r.operations ?? []).some((op) => op === 'UPDATE' || op === '*') &&
      (r.resources ?? []).some((res) => res === 'pods' || res === '*' || res === '*/*'),
  );
}

/** The webhooks of a configuration in the objects. */
const hooksOf = (config: DumpObject): Webhook[] =>
  Array.isArray(config.obj.webhooks) ? (config.obj.webhooks as Webhook[]) : [];

/** X13 — what a webhook's matchConditions decide for the finalizer removal, in words. */
function conditionsText(hook: Webhook, outcome: ConditionsOutcome): string {
  const expression = (name?: string) => (hook.matchConditions ?? []).find((c) => c.name === name)?.expression.trim();
  if ('error' in outcome)
    return `webhook ${hook.name}: its matchConditions fail to evaluate (${outcome.error}) and, with failurePolicy ${hook.failurePolicy ?? 'Fail'}, the UPDATE fails without calling it`;
  if (outcome.called)
    return `webhook ${hook.name} is called: its matchConditions ${outcome.conditions.join(', ')} all hold for it`;
  if (outcome.condition)
    return `webhook ${hook.name} is not called: its matchCondition ${outcome.condition} (${expression(outcome.condition)}) is false for it`;
  return `webhook ${hook.name} is not called: its matchConditions fail to evaluate (${outcome.ignoredError}), and its failurePolicy is Ignore`;
}

/**
 * X9 — webhooks: a webhook configuration in the objects that intercepts pod UPDATEs is named. Its
 * server is the user's (an HTTPS endpoint of the real cluster), which the forward run cannot ask,
 * so the run admits every UPDATE; a server-side dry run of the finalizer patch against the real
 * cluster asks the webhook without changing anything (the admission chain calls validating
 * webhooks on dry runs of requests whose sideEffects allow it). X13: a webhook with matchConditions
 * has them evaluated on the UPDATE that removes the first finalizer, as its holder sends it; the
 * condition that is false (the webhook is not called, so it does not hold the pod) is named.
 */
const webhooks: Detector = (run) => {
  if (!run.after || (run.after.metadata.finalizers ?? []).length === 0) return [];
  const pod = run.after;
  const f = (pod.metadata.finalizers ?? [])[0];
  const without: Pod = { ...pod, metadata: { ...pod.metadata, finalizers: (pod.metadata.finalizers ?? []).slice(1) } };
  const holder = finalizerHolder(f);
  const namespace = run.cluster.apiserver.get('namespaces', undefined, ns(pod));
  return run.unmodelled
    .filter((o) => o.kind === 'ValidatingWebhookConfiguration' || o.kind === 'MutatingWebhookConfiguration')
    .flatMap((o) => {
      const hooks = hooksOf(o).filter(interceptsPodUpdates);
      if (hooks.length === 0) return [];
      const outcomes = hooks.map((h) => ({
        hook: h,
        outcome: webhookConditions(
          h,
          pod,
          without,
          holder,
          run.cluster.release,
          namespace.ok ? namespace.object : undefined,
        ),
      }));
      const decided = outcomes.filter((x) => x.outcome !== undefined).map((x) => conditionsText(x.hook, x.outcome!));
      const skipped = outcomes.every((x) => x.outcome !== undefined && 'called' in x.outcome && !x.outcome.called);
      const conditions =
        decided.length > 0
          ? `; for the UPDATE ${holder.name} sends to remove finalizer ${f}: ${decided.join('; ')}`
          : '';
      if (skipped) {
        return [
          {
            cause: 'webhook' as const,
            detail: `${o.kind} ${o.name} intercepts UPDATE of pods, but not this one${conditions}`,
            next: 'it does not stand in the way of the finalizer removal',
            remedies: [],
          },
        ];
      }
      return [
        {
          cause: 'webhook' as const,
          detail: `${o.kind} ${o.name} intercepts UPDATE of pods and may reject the one that removes a finalizer (its server is not reachable from this run, which admits every UPDATE)${conditions}`,
          next: `if it denies the finalizer removal (or is down with failurePolicy Fail), the remedies below fail with "admission webhook … denied the request" too`,
          remedies: [
            {
              action: `ask ${o.name} without changing anything`,
              command: `kubectl patch ${kubectlPod(pod)} --dry-run=server --type=json -p '${JSON.stringify(finalizerRemoval(0, f))}'`,
              risk: 'none (a server-side dry run; a webhook with sideEffects Some or Unknown is not called and the dry run is refused)',
            },
            {
              action: `see what ${o.name} matches`,
              command: `kubectl get ${o.kind.toLowerCase()} ${o.name} -o yaml`,
              risk: 'none (a read)',
            },
          ],
        },
      ];
    });
};

/** A webhook of the cluster's own configurations (a scenario's, or one created during a run), with its configuration. */
function storedWebhook(
  run: PodRun,
  name: string,
):
  | { kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration'; config: string; hook: Webhook }
  | undefined {
  for (const [resource, kind] of [
    ['validatingwebhookconfigurations', 'ValidatingWebhookConfiguration'],
    ['mutatingwebhookconfigurations', 'MutatingWebhookConfiguration'],
  ] as const) {
    const list = run.cluster.apiserver.list(resource, undefined);
    for (const c of list.ok ? list.object.items : []) {
      const hook = ((c.webhooks ?? []) as Webhook[]).find((h) => h.name === name);
      if (hook) return { kind, config: c.metadata.name!, hook };
    }
  }
  return undefined;
}

/** The webhook a Status message names: dispatcher.go's denial, or ErrCallingWebhook (the call failed, failurePolicy Fail). */
const WEBHOOK_REFUSAL = /(?:admission webhook "([^"]+)" denied the request|failed calling webhook "([^"]+)")/;

/**
 * X18 — the cluster's own webhooks (a scenario's configurations, which the run calls through
 * their modelled servers): the UPDATE that removes each finalizer left, as its holder sends it,
 * is tried as a server-side dry run (validating and mutating webhooks with sideEffects None are
 * called on dry runs). A webhook that refuses it, or whose call fails under failurePolicy Fail,
 * is named with the Status message; a mutating webhook that puts the finalizer back is named too.
 * As for a dump's webhooks (X9), the finalizer's own remedy fails until the webhook is fixed.
 */
const clusterWebhooks: Detector = (run) => {
  const pod = run.after;
  if (!pod) return [];
  const api = run.cluster.apiserver;
  const out: Cause[] = [];
  const seen = new Set<string>();
  const name = (found: ReturnType<typeof storedWebhook>, hook: string, why: string, holder: string) => {
    if (!found || seen.has(found.config)) return;
    seen.add(found.config);
    const resource = found.kind.toLowerCase();
    out.push({
      cause: 'webhook',
      detail: `${found.kind} ${found.config}: webhook ${hook} ${why}`,
      next: `${holder} (and the remedies that send the same request) get the same answer until the webhook lets it through`,
      remedies: [
        {
          action: `leave pods being deleted alone: add a matchCondition to webhook ${hook} (e.g. !has(object.metadata.deletionTimestamp)) or fix its server`,
          command: `kubectl edit ${resource} ${found.config}`,
          risk: `${hook} no longer sees what the change excludes`,
        },
        {
          action: `delete the webhook configuration ${found.config}`,
          command: `kubectl delete ${resource} ${found.config}`,
          risk: `nothing ${found.config} checks is checked any more; recreate it once the pod is gone`,
        },
      ],
    });
  };
  // With no finalizer left, what releases the pod is the kubelet's final DELETE (grace 0, its uid as precondition).
  if ((pod.metadata.finalizers ?? []).length === 0 && pod.spec?.nodeName) {
    const kubelet = { name: `kubelet/${pod.spec.nodeName}`, component: 'kubelet' as const };
    const r = api.delete(kubelet, 'pods', ns(pod), pod.metadata.name!, {
      gracePeriodSeconds: 0,
      preconditions: { uid: pod.metadata.uid },
      dryRun: ['All'],
    });
    const m = r.ok ? null : WEBHOOK_REFUSAL.exec(r.status.message);
    if (m && !r.ok)
      name(
        storedWebhook(run, m[1] ?? m[2]),
        m[1] ?? m[2],
        `refuses the kubelet's final DELETE (tried as ${kubelet.name}, a dry run): ${r.code} ${r.status.message}`,
        kubelet.name,
      );
  }
  (pod.metadata.finalizers ?? []).forEach((f, index) => {
    if (f === FINALIZER_FOREGROUND) return;
    const holder = finalizerHolder(f);
    const mark = run.cluster.timeline.all().length;
    const r = api.patch(holder, 'pods', ns(pod), pod.metadata.name!, 'json', finalizerRemoval(index, f), {
      dryRun: true,
    });
    if (!r.ok) {
      const m = WEBHOOK_REFUSAL.exec(r.status.message);
      if (m)
        return name(
          storedWebhook(run, m[1] ?? m[2]),
          m[1] ?? m[2],
          `refuses the UPDATE that removes finalizer ${f} (tried as ${holder.name}, a dry run): ${r.code} ${r.status.message}`,
          holder.name,
        );
      // A mutating webhook's patch that the pod's validation then refuses (an immutable field changed).
      const patched = run.cluster.timeline
        .all()
        .slice(mark)
        .map((e) => /^webhook (\S+) patched UPDATE pods\//.exec(e.text))
        .find((x) => x !== null);
      if (patched)
        name(
          storedWebhook(run, patched[1]),
          patched[1],
          `patches the UPDATE that removes finalizer ${f} (tried as ${holder.name}, a dry run), and the patched pod is refused: ${r.code} ${r.status.message}`,
          holder.name,
        );
      return;
    }
    if (!(r.object.metadata.finalizers ?? []).includes(f)) return;
    // The removal succeeds but the finalizer is back: a mutating webhook patched it in again.
    const mutating = api.list('mutatingwebhookconfigurations', undefined);
    const hook = (mutating.ok ? mutating.object.items : [])
      .flatMap((c) => (c.webhooks ?? []) as Webhook[])
      .find(interceptsPodUpdates);
    if (hook)
      name(
        storedWebhook(run, hook.name),
        hook.name,
        `puts finalizer ${f} back on the UPDATE that removes it (tried as ${holder.name}, a dry run: the UPDATE succeeds and changes nothing)`,
        holder.name,
      );
  });
  return out;
};

/** X9 — foregroundDeletion: the garbage collector waits for dependents with blockOwnerDeletion. */
const dependents: Detector = (run) => {
  const pod = run.after ?? run.before;
  if (!(run.before.metadata.finalizers ?? []).includes(FINALIZER_FOREGROUND)) return [];
  const uid = pod.metadata.uid;
  const list = run.cluster.apiserver.list('pods', undefined, (p) =>
    (p.metadata.ownerReferences ?? []).some((r) => r.uid === uid && r.blockOwnerDeletion),
  );
  const waiting = list.ok ? list.object.items.map((p) => `pods/${p.metadata.name}`) : [];
  if (!run.after) {
    return [
      {
        cause: 'dependents',
        detail: `foreground deletion: it waited for its dependents with blockOwnerDeletion`,
        next: `the garbage collector removed foregroundDeletion once they were gone; the pod went at ${at(run, run.goneAtMs!)}`,
        remedies: [],
      },
    ];
  }
  return [
    {
      cause: 'dependents',
      detail: `foreground deletion waits for ${waiting.join(', ') || 'its dependents'} (blockOwnerDeletion)`,
      next: `the garbage collector removes foregroundDeletion only once ${waiting.length > 1 ? 'they are' : 'it is'} gone from the API; see ${waiting.length > 1 ? 'their' : 'its'} own explanation`,
      remedies: [
        {
          action: 'remove foregroundDeletion',
          command: `kubectl patch ${kubectlPod(pod)} --type=json -p '[{"op":"test","path":"/metadata/finalizers/${(pod.metadata.finalizers ?? []).indexOf(FINALIZER_FOREGROUND)}","value":"${FINALIZER_FOREGROUND}"},{"op":"remove","path":"/metadata/finalizers/${(pod.metadata.finalizers ?? []).indexOf(FINALIZER_FOREGROUND)}"}]'`,
          risk: 'the dependents stay, with an ownerReference to a pod that is gone: the garbage collector then deletes them in the background',
        },
      ],
    },
  ];
};

/** X11 — its node cannot reach the apiserver: no kubelet sends the final DELETE. */
const unreachableNode: Detector = (run) => {
  const pod = run.after;
  const nodeName = pod?.spec?.nodeName;
  const node = nodeName ? run.cluster.nodes.get(nodeName) : undefined;
  if (!pod || !node || node.reachable) return [];
  // A pod deleted with grace 0 (a force delete) goes the moment its last finalizer does: the
  // apiserver waits for no kubelet (store.go Delete: graceful deletion done, only finalizers left).
  if (pod.metadata.deletionGracePeriodSeconds === 0) return [];
  const since = node.unreachableSince !== undefined ? ` since ${new Date(node.unreachableSince).toISOString()}` : '';
  const obj = run.cluster.apiserver.get('nodes', undefined, node.name);
  const tainted = obj.ok && (obj.object.spec?.taints ?? []).some((t) => t.key === TAINT_OUT_OF_SERVICE);
  return [
    {
      cause: 'node-unreachable',
      detail: `node ${node.name} is unreachable${since}: its kubelet cannot stop the containers nor send the final DELETE`,
      next: `no kubelet DELETE until the node comes back; pod GC force-deletes a terminating pod only once its Node is deleted (gcOrphaned) or tainted ${TAINT_OUT_OF_SERVICE} (gcTerminating)${tainted ? ' — the taint is there, but the node is not NotReady yet' : ''}`,
      remedies: [
        {
          action: `mark the node out of service (only once ${node.name} is really shut down)`,
          command: `kubectl taint node ${node.name} ${TAINT_OUT_OF_SERVICE}=nodeshutdown:NoExecute`,
          risk: 'pod GC force-deletes every terminating pod of the node and its volumes are detached at once: if the machine still runs, its containers keep writing to volumes now attached elsewhere',
        },
        {
          action: `delete the Node ${node.name}`,
          command: `kubectl delete node ${node.name}`,
          risk: 'pod GC then force-deletes all its pods (40 s later): the same as a force delete of each; a kubelet that comes back registers the node again',
        },
        forceDelete(pod, `the node is unreachable (nothing confirms its containers stopped)`),
      ],
    },
  ];
};

/** containers still running: their remaining grace, or a runtime that cannot kill them. */
const runningContainers: Detector = (run) => {
  const nodeName = run.before.spec?.nodeName;
  const node = nodeName ? run.cluster.nodes.get(nodeName) : undefined;
  if (!node || !node.reachable) return [];
  const out: Cause[] = [];
  for (const c of run.running) {
    if (c.state === 'running' && run.after) {
      out.push({
        cause: 'containers-running',
        detail: `container ${c.name} still runs: it survives SIGKILL, so every kill fails (FailedKillPod: DeadlineExceeded)`,
        next: `the kubelet retries the kill after each failure (its back-off, 10s) for ever: no terminal status, no final DELETE`,
        remedies: [
          forceDelete(run.after, `container ${c.name} still runs on node ${node.name}`),
          {
            action: `restart the container runtime on ${node.name}, or reboot it`,
            command: `ssh ${node.name} sudo systemctl restart containerd`,
            risk: 'every container of the node restarts',
          },
        ],
      });
    } else if (
      c.state === 'exited' &&
      c.finishedAt !== undefined &&
      c.finishedAt > run.t0 &&
      run.goneAtMs !== undefined
    ) {
      // What held it until it went; for a pod still held at the end, the other causes say what holds it now.
      const how =
        c.exitCode === 137
          ? `killed at the deadline: ${Math.round((c.finishedAt - run.t0) / 1000)}s of its grace were left`
          : `exited with code ${c.exitCode} after its SIGTERM`;
      out.push({
        cause: 'containers-running',
        detail: `container ${c.name} ran until ${at(run, c.finishedAt)} (${how})`,
        next: `the kubelet then finished the pod: gone at ${at(run, run.goneAtMs)}`,
        remedies: [
          {
            action: 'wait',
            command: `kubectl wait --for=delete ${kubectlPod(run.before).replace('pod ', 'pod/')} --timeout=${Math.ceil((run.goneAtMs - run.t0) / 1000) + 10}s`,
            risk: 'none',
          },
          forceDelete(run.before, `container ${c.name} is still in its grace period`),
        ],
      });
    }
  }
  return out;
};

/** a volume that does not unmount keeps SyncTerminatedPod, and so the final DELETE, waiting. */
const stuckVolumes: Detector = (run) => {
  const nodeName = run.before.spec?.nodeName;
  const node = nodeName ? run.cluster.nodes.get(nodeName) : undefined;
  if (!node || !run.after) return [];
  const ref = `pods/${run.before.metadata.name}`;
  const failing = node.volumes
    .stuckVolumes()
    .filter((v) => v.podRef === ref)
    .map((v) => ({ volume: v.volume, why: `${v.failures} failed attempts; last error: ${v.lastError}` }));
  const hanging = node.volumes
    .hangingVolumes()
    .filter((v) => v.podRef === ref)
    .map((v) => ({ volume: v.volume, why: 'TearDown never returned' }));
  return [...failing, ...hanging].map((v) => ({
    cause: 'volume-unmount' as const,
    detail: `volume ${v.volume} on node ${node.name} does not unmount (${v.why})`,
    next: 'the volume manager retries with back-off (up to 2m2s apart) for ever; the kubelet sends the final DELETE only after the last volume is unmounted',
    remedies: [
      {
        action: `unmount it by hand on ${node.name} (find what keeps it busy: lsof, fuser)`,
        command: `ssh ${node.name} sudo umount /var/lib/kubelet/pods/${run.before.metadata.uid}/volumes/*/${v.volume}`,
        risk: 'a process still using it loses its files',
      },
      forceDelete(run.after!, `volume ${v.volume} is still mounted on node ${node.name}`),
    ],
  }));
};

/**
 * X14 — the sandbox's network teardown fails: killPodWithSyncResult's StopPodSandbox errs, the
 * kill fails (FailedKillPod … KillPodSandbox), the pod worker retries after its back-off, and the
 * pod never reaches its final DELETE although its containers are stopped.
 */
const failingSandbox: Detector = (run) => {
  const nodeName = run.before.spec?.nodeName;
  const node = nodeName ? run.cluster.nodes.get(nodeName) : undefined;
  const uid = run.before.metadata.uid!;
  const error = node?.runtime.sandboxTeardownErrors.get(uid);
  if (!node || !node.reachable || !run.after || error === undefined || node.runtime.sandbox(uid)?.state !== 'ready')
    return [];
  return [
    {
      cause: 'sandbox',
      detail: `the sandbox of the pod on node ${node.name} cannot be torn down (FailedKillPod: KillPodSandbox): ${error}`,
      next: 'the kubelet retries the kill after each failure (its back-off, 10s) for ever: the containers are stopped, but the pod never gets its final DELETE',
      remedies: [
        {
          action: `repair the network plugin on ${node.name} (its daemon, e.g. the CNI's node agent, must answer CNI DEL again); the next retry then tears the sandbox down`,
          command: `kubectl get pods -n kube-system -o wide --field-selector spec.nodeName=${node.name}`,
          risk: "none (a read: find the network plugin's pod of the node)",
        },
        forceDelete(run.after, `its sandbox (network namespace, IP address) is still on node ${node.name}`),
      ],
    },
  ];
};

/** The detectors in the order their causes are listed. */
export const DETECTORS: readonly Detector[] = [
  finalizers,
  policies,
  clusterWebhooks,
  webhooks,
  dependents,
  unreachableNode,
  runningContainers,
  stuckVolumes,
  failingSandbox,
];

/**
 * nothing holds it: it goes away within the run by itself — the kubelet finishes it, or the
 * controller whose finalizers it carried at T+0 removes them (the request that took the last one
 * off is named, with its client).
 */
export function nothingHolds(run: PodRun): Cause {
  if (run.goneAtMs !== undefined) {
    const released = finalizersRemovedBy(run);
    const detail = released
      ? `nothing holds it: ${released}, and it is gone at ${at(run, run.goneAtMs)}`
      : `nothing holds it: the kubelet finishes the pod and it is gone at ${at(run, run.goneAtMs)}`;
    return { cause: 'nothing', detail, next: `gone at ${at(run, run.goneAtMs)}`, remedies: [] };
  }
  return {
    cause: 'nothing',
    detail: 'nothing the simulation models holds it, yet it was still there at the end of the run',
    next: 'look at the report of the run (--report DIR)',
    remedies: [],
  };
}

/** Who removed the finalizers the pod carried at T+0, from the pod's history and the timeline's request events. */
function finalizersRemovedBy(run: PodRun): string | undefined {
  const held = (run.before.metadata.finalizers ?? []).filter((f) => f !== FINALIZER_FOREGROUND);
  if (held.length === 0) return undefined;
  const api = run.cluster.apiserver;
  const key = api.keyFor('pods', run.before.metadata.namespace, run.before.metadata.name!);
  const requestOf = (id: number) =>
    run.cluster.timeline.all().find((e) => e.component === 'apiserver' && e.requestId === id);
  // The write that dropped them: a version without them, or (grace 0) the update that removed the object with its last finalizer.
  const lacksThem = (value: { metadata?: unknown }) =>
    held.every((f) => !((value.metadata as { finalizers?: string[] }).finalizers ?? []).includes(f));
  const change = api.etcd
    .keyHistory(key)
    .find(
      (e) =>
        e.at >= run.t0 && (e.type === 'PUT' ? lacksThem(e.value) : !requestOf(e.requestId)?.text.startsWith('DELETE')),
    );
  const request = change && requestOf(change.requestId);
  if (!change || !request) return undefined;
  return `${request.actor ?? 'a client'} removed finalizer ${held.join(', ')} at ${at(run, change.at)} (${request.text})`;
}
