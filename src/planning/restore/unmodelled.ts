import type { Webhook } from '../../apiserver/webhook/configuration';
import { ruleMatches, type AdmissionAttributes } from '../../apiserver/webhook/matching';
import type { DumpObject } from './dump';
import { persistentVolumeRisk } from './volume-sources';

/**
 * X15 — an object of the dump the simulation does not resume is named with what it could do to a
 * pod, so that a suspect is never silently dropped: a webhook configuration whose webhooks
 * intercept the requests that release a deleted pod (an UPDATE removing a finalizer, the kubelet's
 * status update, its final DELETE), a PersistentVolume whose unmount can fail silently.
 */

/** The requests that release a deleted pod: what a webhook on them can refuse or change. */
export const RELEASING_REQUESTS: readonly {
  what: string;
  attributes: Pick<AdmissionAttributes, 'operation' | 'resource' | 'subresource'>;
}[] = [
  {
    what: 'UPDATE of pods (a controller removing its finalizer)',
    attributes: { operation: 'UPDATE', resource: 'pods', subresource: '' },
  },
  {
    what: 'UPDATE of pods/status (the kubelet reporting the containers stopped)',
    attributes: { operation: 'UPDATE', resource: 'pods', subresource: 'status' },
  },
  {
    what: "DELETE of pods (the kubelet's final DELETE)",
    attributes: { operation: 'DELETE', resource: 'pods', subresource: '' },
  },
];

/** The releasing requests a webhook's rules match (its selectors and conditions are the pod's business: explain's evidence.ts). */
export function interceptedReleases(hook: Webhook): string[] {
  return RELEASING_REQUESTS.filter((r) =>
    (hook.rules ?? []).some((rule) =>
      ruleMatches(rule, {
        ...r.attributes,
        group: '',
        version: 'v1',
        kind: 'Pod',
        namespaced: true,
        name: '',
        dryRun: false,
      }),
    ),
  ).map((r) => r.what);
}

export const isWebhookConfiguration = (o: DumpObject): boolean =>
  o.kind === 'ValidatingWebhookConfiguration' || o.kind === 'MutatingWebhookConfiguration';

export const webhooksOf = (o: DumpObject): Webhook[] =>
  Array.isArray(o.obj.webhooks) ? (o.obj.webhooks as Webhook[]) : [];

/** What an unmodelled object could do to a pod, in words. */
export function whatItCouldDo(o: DumpObject): string {
  if (isWebhookConfiguration(o)) {
    const hooks = webhooksOf(o)
      .map((h) => ({ h, releases: interceptedReleases(h) }))
      .filter((x) => x.releases.length > 0);
    if (hooks.length === 0) return 'its webhooks intercept none of the requests that release a pod';
    const verb =
      o.kind === 'MutatingWebhookConfiguration'
        ? 'change (a change to an immutable field of a pod fails the whole request) or refuse'
        : 'refuse';
    return `its server is the real cluster's, which this run cannot call: ${hooks.map((x) => `webhook ${x.h.name} (failurePolicy ${x.h.failurePolicy ?? 'Fail'}) intercepts ${x.releases.join(', ')}`).join('; ')} — it may ${verb} the request that releases a deleted pod`;
  }
  if (o.kind === 'PersistentVolume') return `read as evidence of a pod's volumes: ${persistentVolumeRisk(o)}`;
  if (o.kind === 'PersistentVolumeClaim')
    return `read as evidence of a pod's volumes (bound to ${String((o.obj.spec as { volumeName?: string } | undefined)?.volumeName ?? 'no volume')})`;
  if (o.kind === 'CSINode') return 'read as evidence: the CSI drivers whose node plugin registered on the node';
  if (o.kind === 'VolumeAttachment')
    return 'read as evidence of the node a volume is attached to: a pod on another node that needs it waits (X20)';
  if (o.kind === 'StorageClass' || o.kind === 'CSIDriver')
    return 'read as evidence of how volumes are provisioned and attached; no pod is held by it directly';
  if (o.kind === 'CustomResourceDefinition')
    return 'custom resources are not resumed; a controller of them that puts finalizers on pods is named by the finalizer';
  return 'no modelled component reads it';
}
