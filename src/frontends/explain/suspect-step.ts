import type { ModelledWebhookCaller } from '../../apiserver/webhook/modelled-caller';
import type { ClusterPlan } from '../../planning/cluster-plan';
import type { Dump } from '../../planning/restore/dump';
import { isWebhookConfiguration, webhooksOf } from '../../planning/restore/unmodelled';
import type { Cause } from './causes';
import type { PodExplanation } from './explain';

/**
 * X17, X19 — the step that makes a suspect (X16) explicit, so that the run models it: a webhook of
 * the objects answering as the suspect would (an injector's init container for a mutating one,
 * a server that is down for failurePolicy Fail, a denial otherwise), a volume that hangs when
 * unmounted. The remedies of a pod the run contradicts are tried with it (remedy-check.ts), and
 * `explain --scenario` writes it after the objects (scenario.ts).
 */

const q = (s: string) => JSON.stringify(s);

/** A step that makes a suspect explicit, and what it does to a plan (the same as its step definition in steps/definitions/objects.steps.ts, steps/definitions/setup.steps.ts). */
export interface SuspectStep {
  text: string;
  apply(plan: ClusterPlan, caller: () => ModelledWebhookCaller): void;
}

/** The step that makes a suspect explicit, when there is one: a webhook of the objects, a network or CSI volume. */
export function suspectStep(cause: Cause, pod: Pick<PodExplanation, 'name'>, dump: Dump): SuspectStep | undefined {
  if (cause.cause === 'webhook') {
    for (const config of dump.objects.filter(isWebhookConfiguration)) {
      for (const hook of webhooksOf(config)) {
        if (!cause.detail.includes(`${config.kind} ${config.name}: webhook ${hook.name} `)) continue;
        const mutating = config.kind === 'MutatingWebhookConfiguration';
        if (mutating) {
          const container = `${hook.name.split('.')[0]}-injected`;
          return {
            text: `webhook ${q(hook.name)} of the objects adds init container ${q(container)} to pods`,
            apply: (plan, caller) => (
              plan.resumeWebhook(hook.name), caller().serve(hook.name, { addsInitContainer: container })
            ),
          };
        }
        if ((hook.failurePolicy ?? 'Fail') === 'Fail')
          return {
            text: `webhook ${q(hook.name)} of the objects is down`,
            apply: (plan, caller) => (plan.resumeWebhook(hook.name), caller().serve(hook.name, { down: true })),
          };
        const message = 'denied by the suspect';
        return {
          text: `webhook ${q(hook.name)} of the objects refuses the requests it intercepts with ${q(message)}`,
          apply: (plan, caller) => (plan.resumeWebhook(hook.name), caller().serve(hook.name, { rejects: message })),
        };
      }
    }
  }
  if (cause.cause === 'volume-unmount') {
    const m = /volume (\S+) \(/.exec(cause.detail.replace(/^suspect \d+ of \d+: /, ''));
    if (m)
      return {
        text: `volume ${q(m[1])} of pod ${q(pod.name)} hangs when unmounted`,
        apply: (plan) => plan.volumeBehaviour(m[1], pod.name, { unmountMs: 0, neverUnmounts: false, hangs: true }),
      };
  }
  return undefined;
}
