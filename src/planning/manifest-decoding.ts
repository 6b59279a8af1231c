import { ApiServer, DEFAULT_APISERVER_OPTIONS, type Resource, type ResourceType } from '../apiserver/apiserver';
import { clone, type KubeObject } from '../apimachinery/object';
import { Clock } from '../foundation/clock';
import type { Release } from '../foundation/release';
import { Timeline } from '../foundation/timeline/timeline';
import { decodeProblems, hasSchema } from '../apiserver/strict-decoding';
import { ManifestError } from './manifest';

/**
 * R240 — a scenario's doc string, a `--manifests` file and an `explain` dump decode as a request
 * body with `fieldValidation=Strict` does (what kubectl sends): the object the manifest makes,
 * of a built-in kind, goes through the apiserver's strict decoder (src/apiserver/strict-decoding.ts)
 * of the scenario's release, and a field of the wrong type, a misspelt field or one the release
 * does not have is refused with the server's own message, naming the object:
 *
 *   pod "web" is refused as kube-apiserver refuses it: Pod in version "v1" cannot be handled as a
 *   Pod: strict decoding error: unknown field "spec.terminationGracePeriodSecond"
 *
 * Kinds without a schema here (custom resources: their CRD's structural schema prunes) pass.
 */
export function decodeStrictly(what: string, obj: KubeObject, minor: number): void {
  const apiVersion = obj.apiVersion ?? '';
  const slash = apiVersion.indexOf('/');
  const gvk = {
    group: slash < 0 ? '' : apiVersion.slice(0, slash),
    version: slash < 0 ? apiVersion : apiVersion.slice(slash + 1),
    kind: obj.kind ?? '',
  };
  if (!hasSchema(gvk, minor)) return;
  const { typeError, strict } = decodeProblems(gvk, obj, minor);
  const detail = typeError ?? (strict.length > 0 ? `strict decoding error: ${strict.join(', ')}` : undefined);
  if (detail === undefined) return;
  const field = typeError ? undefined : /"([^"]+)"/.exec(strict[0])?.[1];
  throw new ManifestError(
    `${what} is refused as kube-apiserver refuses it: ${gvk.kind} in version ${JSON.stringify(gvk.version)} cannot be handled as a ${gvk.kind}: ${detail}`,
    field?.replace(/\[\d+\]/g, (m) => `.${m.slice(1, -1)}`),
  );
}

/** One apiserver per release (and its gates), holding nothing: what a dry run validates against. */
const scratch = new WeakMap<Release, ApiServer>();
const AUTHOR = { name: 'scenario', component: 'user' as const };

/**
 * R240/R242 — the object a scenario declares is refused at the step that declares it, as
 * kube-apiserver would refuse it when the scenario creates it: first strictly decoded
 * (decodeStrictly), then created with `dryRun` in an empty apiserver of the scenario's release
 * (its defaults, its strategy's and kind's validation; nothing is stored, no timeline event is
 * kept). A 422 Invalid becomes the step's error:
 *
 *   pod "web" is refused as kube-apiserver refuses it: Pod "web" is invalid:
 *   spec.containers[0].lifecycle.preStop: Required value: must specify a handler type
 *
 * What depends on the cluster (a name taken, a namespace being deleted) is left to the real create.
 */
export function refuseAsApiserver<R extends Resource>(
  what: string,
  resource: R,
  obj: ResourceType[R],
  release: Release,
): void {
  decodeStrictly(what, obj, release.minor);
  let api = scratch.get(release);
  if (!api) {
    const clock = new Clock();
    api = new ApiServer(clock, new Timeline(clock, 'summary'), { ...DEFAULT_APISERVER_OPTIONS, release });
    scratch.set(release, api);
  }
  const r = api.create(AUTHOR, resource, obj.metadata.namespace ?? 'default', clone(obj), { dryRun: true });
  if (!r.ok && r.code === 422)
    throw new ManifestError(
      `${what} is refused as kube-apiserver refuses it: ${r.status.message}`,
      r.status.details?.causes?.[0]?.field,
    );
}
