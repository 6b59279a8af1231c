import type { Resource } from '../../apiserver/apiserver';
import { builtinKinds } from '../../apiserver/kinds';

/**
 * X1 — the kinds a dump's objects are resumed as: every built-in kind the simulated apiserver
 * stores, at the apiVersion kubectl prints it, with its resource. Left out: webhook
 * configurations (their servers are the real cluster's, which the run cannot call: X15 names
 * what they could do instead), CustomResourceDefinitions and custom resources (a CRD's schema and
 * its custom resources' controllers are the user's), and the admission policies, which the
 * release decides (restore.ts POLICY_RESOURCES). Each kind module says whether its kind is resumed
 * (`resumed`, apiserver/kinds/); resumed-kinds.test.ts checks each against what the server serves.
 */
export const RESUMED_KINDS: Readonly<Record<string, { apiVersion: string; resource: Resource }>> = Object.fromEntries(
  builtinKinds()
    .filter((k) => k.resumed)
    .map((k) => [
      k.kind,
      { apiVersion: k.group === '' ? k.version : `${k.group}/${k.version}`, resource: k.resource as Resource },
    ]),
);

/** The resource a dump object is resumed as (events.k8s.io/v1 Events as core Events), or undefined. */
export function resumedResource(kind: string, apiVersion: string): Resource | undefined {
  if (kind === 'Event' && apiVersion === 'events.k8s.io/v1') return 'events';
  const row = RESUMED_KINDS[kind];
  return row !== undefined && row.apiVersion === apiVersion ? row.resource : undefined;
}
