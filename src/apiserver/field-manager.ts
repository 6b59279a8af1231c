import { StatusError } from '../apimachinery/errors';
import type { Container, Pod } from '../apimachinery/types';

/**
 * V12 — the typed conversion of the live object before a server-side apply (apimachinery
 * managedfields `structuredMergeManager`, behind `skipNonAppliedManager.Apply`), as the status
 * applies of the controllers of v1.26–v1.28 meet it: a pod holding two entries with the same key
 * in a list-map — two env vars of one name, two ports of one number and protocol, which validation
 * only warns about — cannot be converted. Such a pod was stored without managedFields (the
 * create's field manager update failed the same way and `UpdateNoErrors` dropped them), so the
 * apply first tries to record the existing fields for a "before-first-apply" manager and fails
 * there: an error that is not a Status, which responsewriters.ErrorToAPIStatus answers with 500
 * and no reason (kubernetes#118261). Otherwise the apply goes on (managedfields/manager.ts).
 */
export function checkConvertible(live: Pod): void {
  const duplicate = duplicateListMapKey(live);
  if (duplicate) {
    const object = `${live.metadata.namespace}/${live.metadata.name}; /v1, Kind=Pod`;
    const message = `failed to create manager for existing fields: failed to convert new object (${object}) to smd typed: ${duplicate}`;
    throw new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason: '',
      code: 500,
    });
  }
}

/**
 * A duplicate key in the pod's container env (key: name) or ports (keys: containerPort, protocol —
 * TCP when unset, as defaulting stores it), in structured-merge-diff's words:
 * `.spec.containers[name="app"].env: duplicate entries for key [name="X"]`. Fields are walked in
 * name order; only the first duplicate is reported (a pod with several gets one message each from
 * upstream, not modelled).
 */
export function duplicateListMapKey(pod: Pod): string | undefined {
  const lists: [string, Container[] | undefined][] = [
    ['containers', pod.spec?.containers],
    ['initContainers', pod.spec?.initContainers],
  ];
  for (const [field, containers] of lists) {
    for (const c of containers ?? []) {
      const at = `.spec.${field}[name=${JSON.stringify(c.name)}]`;
      const env = firstRepeated((c.env ?? []).map((e) => `[name=${JSON.stringify(e.name)}]`));
      if (env) return `${at}.env: duplicate entries for key ${env}`;
      const ports = firstRepeated(
        (c.ports ?? []).map(
          (p) => `[containerPort=${p.containerPort},protocol=${JSON.stringify(p.protocol ?? 'TCP')}]`,
        ),
      );
      if (ports) return `${at}.ports: duplicate entries for key ${ports}`;
    }
  }
  return undefined;
}

function firstRepeated(keys: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const k of keys) {
    if (seen.has(k)) return k;
    seen.add(k);
  }
  return undefined;
}
