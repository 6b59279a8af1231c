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
  const refusal = strictDecodingRefusal(obj, minor);
  if (refusal)
    throw new ManifestError(`${what} is refused as kube-apiserver refuses it: ${refusal.detail}`, refusal.field);
}

/** decodeStrictly's finding, without the object's name: the decoder's message and the field it names. */
function strictDecodingRefusal(obj: KubeObject, minor: number): Refusal {
  const apiVersion = obj.apiVersion ?? '';
  const slash = apiVersion.indexOf('/');
  const gvk = {
    group: slash < 0 ? '' : apiVersion.slice(0, slash),
    version: slash < 0 ? apiVersion : apiVersion.slice(slash + 1),
    kind: obj.kind ?? '',
  };
  if (!hasSchema(gvk, minor)) return undefined;
  const { typeError, strict } = decodeProblems(gvk, obj, minor);
  const detail = typeError ?? (strict.length > 0 ? `strict decoding error: ${strict.join(', ')}` : undefined);
  if (detail === undefined) return undefined;
  const field = typeError ? undefined : /"([^"]+)"/.exec(strict[0])?.[1];
  return {
    detail: `${gvk.kind} in version ${JSON.stringify(gvk.version)} cannot be handled as a ${gvk.kind}: ${detail}`,
    field: field?.replace(/\[\d+\]/g, (m) => `.${m.slice(1, -1)}`),
  };
}

/**
 * One apiserver per release (and its gates), holding nothing: what a dry run validates against.
 * Keyed by the release's value, not its instance: every scenario that names a release (`Given
 * Kubernetes 1.30`) or sets a gate gets a new Release, and building an apiserver is ≈ 1 ms.
 */
const scratch = new Map<string, ApiServer>();
const AUTHOR = { name: 'scenario', component: 'user' as const };

/** A release's identity: its minor and the gates it sets (Release is an immutable value of both). */
function releaseKey(release: Release): string {
  const gates = release.gateOverrides();
  return `${release.minor} ${JSON.stringify(
    Object.keys(gates)
      .sort()
      .map((g) => [g, gates[g as keyof typeof gates]]),
  )}`;
}

/**
 * What refusing an object found, without the object's name (`what`): nothing, or the refusal's
 * detail and field. Scenarios of one feature share their Background, so the same manifest is
 * declared again in every scenario: the answer depends only on the release, the resource and the
 * object's content, and is kept per distinct content.
 */
type Refusal = { detail: string; field: string | undefined } | undefined;
const refusals = new Map<string, Refusal>();
/** Enough for every manifest of a feature file; a dump of thousands of objects (`explain`) is not kept. */
const MAX_REFUSALS = 512;

/** The object's content as a key: JSON, with what JSON cannot tell apart (undefined, NaN, ±Infinity, -0) spelt out. */
function contentKey(obj: unknown): string {
  return JSON.stringify(obj, (_k, v: unknown) =>
    v === undefined
      ? '\u0000undefined'
      : typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))
        ? `\u0000${Object.is(v, -0) ? '-0' : String(v)}`
        : v,
  );
}

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
  const releaseId = releaseKey(release);
  const key = `${releaseId}\n${resource}\n${contentKey(obj)}`;
  let refusal: Refusal;
  if (refusals.has(key)) refusal = refusals.get(key);
  else {
    refusal = refusalOf(resource, obj, release, releaseId);
    if (refusals.size >= MAX_REFUSALS) refusals.clear();
    refusals.set(key, refusal);
  }
  if (refusal)
    throw new ManifestError(`${what} is refused as kube-apiserver refuses it: ${refusal.detail}`, refusal.field);
}

/** The refusal found by decoding the object strictly, then by a dry-run create in the release's empty apiserver. */
function refusalOf<R extends Resource>(
  resource: R,
  obj: ResourceType[R],
  release: Release,
  releaseId: string,
): Refusal {
  const undecodable = strictDecodingRefusal(obj, release.minor);
  if (undecodable) return undecodable;
  let api = scratch.get(releaseId);
  if (!api) {
    const clock = new Clock();
    api = new ApiServer(clock, new Timeline(clock, 'summary'), { ...DEFAULT_APISERVER_OPTIONS, release });
    scratch.set(releaseId, api);
  }
  const r = api.create(AUTHOR, resource, obj.metadata.namespace ?? 'default', clone(obj), { dryRun: true });
  if (!r.ok && r.code === 422) return { detail: r.status.message, field: r.status.details?.causes?.[0]?.field };
  return undefined;
}
