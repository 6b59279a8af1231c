import { badRequest, invalid, StatusError, type FieldError } from '../apimachinery/errors';
import type { KubeObject } from '../apimachinery/object';
import {
  parseFieldSelector,
  parseLabelSelector,
  SelectorError,
  type FieldSelector,
  type LabelSelector,
} from '../apimachinery/selectors';

/** metav1.ListOptions as the query string carries them (strings, unparsed). */
export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: string;
  continue?: string;
}

/** ListOptions once decoded and validated. */
export interface ParsedListOptions {
  labels?: LabelSelector;
  fields?: FieldSelector;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  limit: number;
  continue?: ContinueToken;
}

/** storage/continue.go: where the next page starts, at which revision. */
export interface ContinueToken {
  readonly rv: number;
  /** The etcd key (relative to the resource prefix) to start at, inclusive. */
  readonly start: string;
}

/**
 * The fields a field selector may name, per resource, with the object's values
 * (each registry's GetAttrs/ToSelectableFields: pkg/registry/core/pod/strategy.go
 * ToSelectableFields, core/node/strategy.go NodeToSelectableFields, core/event/strategy.go
 * ToSelectableFields, apps/replicaset/strategy.go ReplicaSetToSelectableFields,
 * core/namespace/strategy.go NamespaceToSelectableFields; others only metadata.name/namespace).
 */
export function selectableFields(resource: string, obj: KubeObject): Record<string, string> {
  const meta = obj.metadata;
  const o = obj as KubeObject & Record<string, any>;
  // The resource's fields are assigned to `base`, not spread over a copy of it: V8 copies a fresh
  // object that has gained a member (base's namespace) on a slow path, tens of microseconds each —
  // and a LIST with a field selector asks this of every object of the resource.
  const base: Record<string, string> = { 'metadata.name': meta.name ?? '' };
  if (meta.namespace !== undefined || resource !== 'nodes') base['metadata.namespace'] = meta.namespace ?? '';
  switch (resource) {
    case 'pods':
      base['spec.nodeName'] = o.spec?.nodeName ?? '';
      base['spec.restartPolicy'] = o.spec?.restartPolicy ?? '';
      base['spec.schedulerName'] = o.spec?.schedulerName ?? '';
      base['spec.serviceAccountName'] = o.spec?.serviceAccountName ?? '';
      base['spec.hostNetwork'] = String(o.spec?.hostNetwork ?? false);
      base['status.phase'] = o.status?.phase ?? '';
      base['status.podIP'] = o.status?.podIP ?? '';
      base['status.nominatedNodeName'] = o.status?.nominatedNodeName ?? '';
      return base;
    case 'nodes':
      return { 'metadata.name': meta.name ?? '', 'spec.unschedulable': String(o.spec?.unschedulable ?? false) };
    case 'events': {
      const io = o.involvedObject ?? {};
      base['involvedObject.kind'] = io.kind ?? '';
      base['involvedObject.namespace'] = io.namespace ?? '';
      base['involvedObject.name'] = io.name ?? '';
      base['involvedObject.uid'] = io.uid ?? '';
      base['involvedObject.apiVersion'] = io.apiVersion ?? '';
      base['involvedObject.resourceVersion'] = io.resourceVersion ?? '';
      base['involvedObject.fieldPath'] = io.fieldPath ?? '';
      base.reason = o.reason ?? '';
      base.reportingComponent = o.reportingComponent ?? '';
      base.source = o.source?.component ?? '';
      base.type = o.type ?? '';
      return base;
    }
    case 'replicasets':
      base['status.replicas'] = String(o.status?.replicas ?? 0);
      return base;
    case 'namespaces':
      return { 'metadata.name': meta.name ?? '', 'status.phase': o.status?.phase ?? '' };
    // pkg/registry/core/secret/strategy.go SelectableFields.
    case 'secrets':
      base.type = o.type ?? '';
      return base;
    default:
      return base;
  }
}

/** Resources whose field labels are converted by pkg/apis/core/v1/conversion.go (the others use runtime's default conversion). */
const CORE_CONVERSIONS = new Set(['pods', 'nodes', 'events', 'namespaces', 'secrets']);

/**
 * R70/R71 — decodes and validates list options the way handlers/get.go ListResource does: selectors that do
 * not parse or name an unknown field are 400 BadRequest (scope.Convertor.ConvertFieldLabel);
 * inconsistent resourceVersion options are 422 (internalversion/validation ValidateListOptions).
 */
export function parseListOptions(resource: string, sample: KubeObject, query: ListOptions): ParsedListOptions {
  const out: ParsedListOptions = { limit: 0 };
  try {
    if (query.labelSelector) out.labels = parseLabelSelector(query.labelSelector);
    if (query.fieldSelector) out.fields = parseFieldSelector(query.fieldSelector);
  } catch (e) {
    if (e instanceof SelectorError) throw badRequest(e.message);
    throw e;
  }
  if (out.fields) {
    const known = selectableFields(resource, sample);
    for (const r of out.fields.requirements) {
      if (r.field in known) continue;
      throw badRequest(
        CORE_CONVERSIONS.has(resource)
          ? `field label not supported: ${r.field}`
          : `"${r.field}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
      );
    }
  }
  if (query.limit !== undefined && query.limit !== '') {
    // metav1 conversion: limit is an int64 (strconv.ParseInt); a negative limit means "no limit".
    if (!/^[+-]?\d+$/.test(query.limit))
      throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(query.limit)}: invalid syntax`);
    out.limit = Math.max(0, Number(query.limit));
  }
  const rv = query.resourceVersion || undefined;
  const match = query.resourceVersionMatch || undefined;
  const errs: FieldError[] = [];
  if (match !== undefined) {
    if (rv === undefined)
      errs.push({
        field: 'resourceVersionMatch',
        type: 'Forbidden',
        detail: 'resourceVersionMatch is forbidden unless resourceVersion is provided',
      });
    if (query.continue)
      errs.push({
        field: 'resourceVersionMatch',
        type: 'Forbidden',
        detail: 'resourceVersionMatch is forbidden when continue is provided',
      });
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      errs.push({
        field: 'resourceVersionMatch',
        type: 'Unsupported value',
        value: match,
        detail: 'supported values: "Exact", "NotOlderThan", ""',
      });
    } else if (match === 'Exact' && rv === '0') {
      errs.push({
        field: 'resourceVersionMatch',
        type: 'Forbidden',
        detail: 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      });
    }
  }
  if (errs.length > 0) throw invalid('ListOptions.meta.k8s.io', '', errs);
  if (rv !== undefined && !/^\d+$/.test(rv))
    throw badRequest(`invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
  out.resourceVersion = rv;
  out.resourceVersionMatch = match as ParsedListOptions['resourceVersionMatch'];
  if (query.continue) {
    // etcd3 store GetList: a continue token carries its own revision.
    if (rv !== undefined && rv !== '0')
      throw badRequest('specifying resource version is not allowed when using continue');
    out.continue = decodeContinue(query.continue);
  }
  return out;
}

/** Whether an object passes the label and field selectors (storage.SelectionPredicate.Matches). */
export function selectionMatches(
  resource: string,
  options: Pick<ParsedListOptions, 'labels' | 'fields'>,
  obj: KubeObject,
): boolean {
  if (options.labels && !options.labels.matches(obj.metadata.labels)) return false;
  if (options.fields && !options.fields.matches(selectableFields(resource, obj))) return false;
  return true;
}

/** storage.EncodeContinue: base64url (no padding) of `{"v":"meta.k8s.io/v1","rv":N,"start":"KEY\u0000"}`. */
export function encodeContinue(start: string, rv: number): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');
}

/** storage.DecodeContinue, with its error texts under etcd3 GetList's "invalid continue token". */
function decodeContinue(token: string): ContinueToken {
  const fail = (why: string): never => {
    throw badRequest(`invalid continue token: ${why}`);
  };
  let parsed: { v?: unknown; rv?: unknown; start?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    return fail('continue key is not valid: illegal base64 data or JSON');
  }
  if (parsed.v !== 'meta.k8s.io/v1')
    return fail(`continue key is not valid: server does not recognize this encoded version "${String(parsed.v)}"`);
  if (typeof parsed.rv !== 'number' || parsed.rv === 0)
    return fail('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof parsed.start !== 'string' || parsed.start.length === 0)
    return fail('continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
  if (parsed.start.includes('..') || parsed.start.startsWith('/'))
    return fail('continue key is not valid: encoded start key is not a relative path (version meta.k8s.io/v1)');
  return { rv: parsed.rv, start: parsed.start };
}

/** The 410 of a continue token or exact resourceVersion older than the last compaction (storage errors → apierrors.NewResourceExpired). */
export function expired(message: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    reason: 'Expired',
    code: 410,
    message,
  });
}

/** storage.NewTooLargeResourceVersionError as the cacher answers it (504, retry after 1 s). */
export function tooLargeResourceVersion(asked: number, current: number): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    reason: 'Timeout',
    code: 504,
    message: `Too large resource version: ${asked}, current: ${current}`,
    details: {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    },
  });
}
