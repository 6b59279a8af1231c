import type { Pod } from '../../apimachinery/types';
import { FINALIZER_FOREGROUND } from '../../apimachinery/validation';
import type { Webhook } from '../../apiserver/webhook/configuration';
import { shouldCallHook, type AdmissionAttributes } from '../../apiserver/webhook/matching';
import { GC_SYNC_PERIOD_MS } from '../../components/controllers/garbage-collector';
import type { ClientIdentity } from '../../apiserver/apiserver';
import type { DumpObject } from '../../planning/restore/dump';
import { isWebhookConfiguration, webhooksOf } from '../../planning/restore/unmodelled';
import { csiNodePluginGone, podVolumeSources, SILENT_UNMOUNT_TYPES } from '../../planning/restore/volume-sources';
import { formatDuration, formatOffset } from '../../foundation/timeline/time';
import { finalizerHolder, finalizerRemoval, webhookConditions } from './admission';
import type { Cause, PodRun, Remedy } from './causes';

/**
 * X16 — the dump's own history is evidence. A pod's deletionTimestamp says since when the cluster
 * has kept it Terminating past its grace period; the forward run says how long the modelled path
 * still needs from the state the objects show. When the cluster kept it far longer than that, the
 * run contradicts the cluster: something the simulation does not model held it. explain then
 * names the suspects the objects support, ranked, each with its evidence, instead of "nothing".
 */

/** A duration as kubectl prints an age past a day (`2d17h`), else Go's form (`1h15m25s`). */
export function formatAge(ms: number): string {
  const day = 86_400_000;
  if (Math.abs(ms) < day) return formatDuration(ms);
  const d = Math.floor(ms / day);
  const h = Math.floor((ms % day) / 3_600_000);
  return `${d}d${h > 0 ? `${h}h` : ''}`;
}

/** How much longer than the run the cluster kept the pod, when that is more than the modelled path allows. */
export interface Contradiction {
  /** Since its deletionTimestamp (its grace period over) until the objects were read. */
  overdueMs: number;
  /** What the modelled path needs from the state the objects show: the run's own time to release it, plus the longest wait of a modelled loop. */
  boundMs: number;
  text: string;
}

/**
 * The longest a modelled component waits before it retries a step that may release a pod: the
 * kubelet's sync frequency and its pod worker's back-off, the volume manager's longest back-off,
 * the garbage collector's resync. A run that released the pod at T+x would, from the same state,
 * have released it within x plus this in the cluster too — if the cluster were the model.
 */
export function longestModelledWaitMs(run: PodRun): number {
  const nodeName = run.before.spec?.nodeName;
  const node = nodeName ? run.cluster.nodes.get(nodeName) : undefined;
  const kubelet = node?.config.kubelet;
  return Math.max(
    kubelet?.syncFrequencyMs ?? 0,
    kubelet?.backOffPeriodMs ?? 0,
    node?.config.volumes.backoffMaxMs ?? 0,
    GC_SYNC_PERIOD_MS,
  );
}

/** X16 — the run released the pod, but the cluster had kept it Terminating for longer than the modelled path needs. */
export function contradiction(run: PodRun): Contradiction | undefined {
  const history = run.shown ?? run.before;
  if (run.goneAtMs === undefined || history.metadata.deletionTimestamp === undefined) return undefined;
  const overdueMs = run.t0 - Date.parse(history.metadata.deletionTimestamp);
  const boundMs = run.goneAtMs - run.t0 + longestModelledWaitMs(run);
  if (!(overdueMs > boundMs)) return undefined;
  const text = `the run contradicts the cluster: the run releases it at ${formatOffset(run.goneAtMs - run.t0)}, but the cluster kept it Terminating for ${formatAge(overdueMs)} after its deletionTimestamp, longer than the modelled path needs from the state the objects show (at most ${formatDuration(boundMs)}: the run's own ${formatDuration(run.goneAtMs - run.t0)} plus the longest wait of a modelled loop, ${formatDuration(longestModelledWaitMs(run))}); something the simulation does not model holds it`;
  return { overdueMs, boundMs, text };
}

/** One request that released the pod in the run, as admission sees it, and who sent it. */
interface Release {
  attributes: AdmissionAttributes;
  holder: ClientIdentity;
  what: string;
  /** The pod the request sends (an UPDATE's new object) and the stored one. */
  object: Pod;
  oldObject: Pod;
}

/** The requests that released the pod in the run: its holder's finalizer removal, or the kubelet's status update and final DELETE. */
function releasingRequests(run: PodRun): Release[] {
  const pod = run.before;
  const ns = pod.metadata.namespace ?? 'default';
  const base = {
    group: '',
    version: 'v1',
    kind: 'Pod',
    resource: 'pods',
    namespaced: true,
    namespace: ns,
    name: pod.metadata.name ?? '',
    dryRun: false,
  } as const;
  const held = (pod.metadata.finalizers ?? []).filter((f) => f !== FINALIZER_FOREGROUND);
  if (held.length > 0) {
    const f = held[0];
    const without: Pod = {
      ...pod,
      metadata: { ...pod.metadata, finalizers: (pod.metadata.finalizers ?? []).filter((x) => x !== f) },
    };
    const holder = finalizerHolder(f);
    return [
      {
        attributes: { ...base, operation: 'UPDATE', subresource: '' },
        holder,
        what: `the UPDATE of pods that removes finalizer ${f} (sent by ${holder.name})`,
        object: without,
        oldObject: pod,
      },
    ];
  }
  const kubelet: ClientIdentity = { name: `system:node:${pod.spec?.nodeName ?? ''}`, component: 'status' };
  return [
    {
      attributes: { ...base, operation: 'UPDATE', subresource: 'status' },
      holder: kubelet,
      what: `the kubelet's UPDATE of pods/status (containers stopped)`,
      object: pod,
      oldObject: pod,
    },
    {
      attributes: { ...base, operation: 'DELETE', subresource: '' },
      holder: kubelet,
      what: `the kubelet's final DELETE of pods`,
      object: pod,
      oldObject: pod,
    },
  ];
}

/** A suspect: a cause the run did not model, with its rank's weight and evidence. */
interface Suspect {
  weight: number;
  cause: Cause;
}

/** Namespace labels as admission matches them: the stored namespace's, with kubernetes.io/metadata.name (the namespace strategy always sets it). */
function namespaceLabels(run: PodRun, name: string): Record<string, string> {
  const ns = run.cluster.apiserver.get('namespaces', undefined, name);
  const fromDump = run.objects.find((o) => o.kind === 'Namespace' && o.name === name)?.obj.metadata as
    | { labels?: Record<string, string> }
    | undefined;
  return {
    'kubernetes.io/metadata.name': name,
    ...(fromDump?.labels ?? {}),
    ...((ns.ok ? ns.object.metadata.labels : undefined) ?? {}),
  };
}

/** The webhook configurations the run cannot ask: those of the dump, left out (their servers are the real cluster's). */
function dumpWebhookConfigurations(run: PodRun): DumpObject[] {
  return run.unmodelled.filter(isWebhookConfiguration);
}

/** X16 — webhooks of the dump that the requests releasing the pod would call (rules, namespaceSelector, objectSelector, matchConditions). */
function webhookSuspects(run: PodRun): Suspect[] {
  const out: Suspect[] = [];
  const releases = releasingRequests(run);
  const pod = run.before;
  const ns = pod.metadata.namespace ?? 'default';
  for (const config of dumpWebhookConfigurations(run)) {
    const mutating = config.kind === 'MutatingWebhookConfiguration';
    for (const hook of webhooksOf(config) as Webhook[]) {
      const called = releases.filter((r) => {
        if (!shouldCallHook(hook, r.attributes, r.object, r.oldObject, (n) => namespaceLabels(run, n))) return false;
        if (r.attributes.operation !== 'UPDATE') return true;
        const nsObj = run.cluster.apiserver.get('namespaces', undefined, ns);
        const outcome = webhookConditions(
          hook,
          r.oldObject,
          r.object,
          r.holder,
          run.cluster.release,
          nsObj.ok ? nsObj.object : undefined,
        );
        return outcome === undefined || 'error' in outcome || outcome.called;
      });
      if (called.length === 0) continue;
      const failurePolicy = hook.failurePolicy ?? 'Fail';
      const injector =
        mutating && (hook.rules ?? []).some((r) => (r.operations ?? []).some((op) => op === 'CREATE' || op === '*'));
      const evidence = [
        `its rules match ${called.map((r) => r.what).join(' and ')}`,
        `its namespaceSelector and objectSelector match pod ${pod.metadata.name} in namespace ${ns}${(hook.matchConditions ?? []).length > 0 ? ', and its matchConditions hold for that request' : ''}`,
        `failurePolicy ${failurePolicy}${failurePolicy === 'Fail' ? ': if its server is down or slow, the request fails too' : mutating ? ' (it only covers a call that fails: a patch the webhook returns is applied, and validated, all the same)' : ''}`,
        ...(mutating
          ? [
              `a mutating webhook: a patch it returns that changes an immutable field of the pod (containers, initContainers, volumes${injector ? ' — what it adds at CREATE, added again on UPDATE' : ''}) makes the apiserver refuse the whole UPDATE ("pod updates may not change fields other than …", "pod updates may not add or remove containers")`,
            ]
          : []),
      ];
      const first = called[0];
      const f = (pod.metadata.finalizers ?? []).filter((x) => x !== FINALIZER_FOREGROUND)[0];
      const remedies: Remedy[] = [
        f !== undefined
          ? {
              action: `ask ${config.name} without changing anything (a server-side dry run of the finalizer removal)`,
              command: `kubectl patch pod ${pod.metadata.name} -n ${ns} --dry-run=server --type=json -p '${JSON.stringify(finalizerRemoval((pod.metadata.finalizers ?? []).indexOf(f), f))}'`,
              risk: 'none (a dry run; a webhook with sideEffects Some or Unknown is not called and the dry run is refused)',
            }
          : {
              action: `see what ${config.name} matches`,
              command: `kubectl get ${config.kind.toLowerCase()} ${config.name} -o yaml`,
              risk: 'none (a read)',
            },
        {
          action: `leave pods being deleted alone: add a matchCondition to webhook ${hook.name} (e.g. !has(object.metadata.deletionTimestamp))${mutating ? ', or drop UPDATE from its rules' : ''}`,
          command: `kubectl edit ${config.kind.toLowerCase()} ${config.name}`,
          risk: `${hook.name} no longer sees what the change excludes`,
        },
        {
          action: `delete the webhook configuration ${config.name}`,
          command: `kubectl delete ${config.kind.toLowerCase()} ${config.name}`,
          risk: `nothing ${config.name} does is done any more (${mutating ? 'pods created meanwhile miss what it injects' : 'requests it would refuse are admitted'}); recreate it once the pod is gone`,
        },
      ];
      out.push({
        weight: mutating ? (injector ? 5 : 4) : failurePolicy === 'Fail' ? 3 : 2,
        cause: {
          cause: 'webhook',
          detail: `${config.kind} ${config.name}: webhook ${hook.name} intercepts ${first.what}, which this run admits without it (its server is the real cluster's)`,
          next: `if it refuses or breaks that request, ${first.holder.name} retries for ever and the pod stays; its answer is in the apiserver's log and in ${first.holder.name}'s errors`,
          remedies,
          evidence,
        },
      });
    }
  }
  return out;
}

/** X16 — volumes whose unmount can fail or hang silently (network and CSI volumes), and CSI drivers whose node plugin is gone. */
function volumeSuspects(run: PodRun): Suspect[] {
  const pod = run.before;
  const node = pod.spec?.nodeName;
  if (!node) return [];
  return podVolumeSources(pod, run.objects)
    .filter((v) => (SILENT_UNMOUNT_TYPES as readonly string[]).includes(v.type))
    .map((v) => {
      const gone = v.csiDriver !== undefined ? csiNodePluginGone(v.csiDriver, node, run.objects) : undefined;
      const evidence = [
        `volume ${v.volume} is ${v.detail}`,
        'the kubelet records no Event while a TearDown hangs (an NFS server that does not answer, a CSI NodeUnpublishVolume that never returns): only its log shows it',
        ...(gone
          ? [
              `CSINode ${node} does not list driver ${v.csiDriver}: its node plugin is gone from the node, so NodeUnpublishVolume cannot be called`,
            ]
          : []),
      ];
      return {
        weight: gone ? 6 : 3,
        cause: {
          cause: 'volume-unmount' as const,
          detail: `volume ${v.volume} (${v.detail}) may not unmount on node ${node}${gone ? `: CSI driver ${v.csiDriver} has no node plugin there` : ''}`,
          next: 'the kubelet sends the final DELETE only once every volume is unmounted; it retries with back-off (up to 2m2s apart) for ever',
          remedies: [
            ...(gone
              ? [
                  {
                    action: `bring the node plugin of ${v.csiDriver} back on ${node} (its DaemonSet's pod)`,
                    command: `kubectl get pods -A -o wide --field-selector spec.nodeName=${node}`,
                    risk: "none (a read: find the driver's pod of the node)",
                  },
                ]
              : []),
            {
              action: `find the hung mount on ${node} (ps: processes in state D; mount | grep ${pod.metadata.uid})`,
              command: `ssh ${node} "mount | grep ${pod.metadata.uid}"`,
              risk: 'none (a read)',
            },
            {
              action: 'force delete it',
              command: `kubectl delete pod ${pod.metadata.name} -n ${pod.metadata.namespace ?? 'default'} --grace-period=0 --force`,
              risk: `frees the name while volume ${v.volume} is still mounted on node ${node}: the mount (and any process stuck on it) stays until the node is rebooted`,
            },
          ],
          evidence,
        },
      };
    });
}

/** X16 — the controller that would remove the finalizer did so in the run at once: in the cluster it is absent or failing. */
function controllerSuspects(run: PodRun): Suspect[] {
  const held = (run.before.metadata.finalizers ?? []).filter((f) => f !== FINALIZER_FOREGROUND);
  return held.map((f) => {
    const holder = finalizerHolder(f);
    const own = holder.name !== 'kubectl';
    return {
      weight: 1,
      cause: {
        cause: 'finalizer' as const,
        detail: `finalizer ${f}: ${own ? `${holder.name} (kube-controller-manager) removes it at once in the run; in the cluster it did not — it is absent, not leader, or its UPDATE fails` : 'its controller removed it in the run; in the cluster it did not'}`,
        next: `the pod stays until ${holder.name} removes the finalizer`,
        remedies: [
          {
            action: `see whether ${holder.name} runs and what it logs`,
            command: 'kubectl get pods -n kube-system -l component=kube-controller-manager',
            risk: 'none (a read)',
          },
          {
            action: `remove the finalizer ${f}`,
            command: `kubectl patch pod ${run.before.metadata.name} -n ${run.before.metadata.namespace ?? 'default'} --type=json -p '${JSON.stringify(finalizerRemoval((run.before.metadata.finalizers ?? []).indexOf(f), f))}'`,
            risk: `skips what ${holder.name} does first; refused too if a webhook above breaks UPDATEs`,
          },
        ],
        evidence: [
          `the pod still carries ${f} ${formatAge(run.t0 - Date.parse((run.shown ?? run.before).metadata.deletionTimestamp ?? ''))} after its deletionTimestamp`,
        ],
      },
    };
  });
}

/** X16 — the suspects the objects support, strongest evidence first; each cause's detail starts with its rank. */
export function suspects(run: PodRun): Cause[] {
  const all = [...webhookSuspects(run), ...volumeSuspects(run), ...controllerSuspects(run)];
  const ranked = all.map((s, i) => ({ ...s, i })).sort((a, b) => b.weight - a.weight || a.i - b.i);
  return ranked.map((s, i) => ({ ...s.cause, detail: `suspect ${i + 1} of ${ranked.length}: ${s.cause.detail}` }));
}

/** When no object supports a suspect: the run still contradicts the cluster; never "nothing holds it". */
export function unexplained(run: PodRun, c: Contradiction): Cause {
  const node = run.before.spec?.nodeName;
  return {
    cause: 'nothing',
    detail: `unexplained: ${c.text}; no object of the dump points to a suspect`,
    next: `look at what the objects do not show: ${node ? `the kubelet's and the container runtime's logs on node ${node} (journalctl -u kubelet)` : "the controllers' logs"}, and add the Events of the pod (kubectl get events -n ${run.before.metadata.namespace ?? 'default'} --field-selector involvedObject.name=${run.before.metadata.name} -o yaml) and the webhook configurations to the dump`,
    remedies: [],
  };
}
