import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OpenApiSchema } from './managedfields/schema';
import { builtinKinds } from './kinds';

/**
 * R110 — the OpenAPI definitions of the served kinds, read as data from `@kubernetes/client-node`
 * (pinned): its generated models are upstream's OpenAPI document (spec v1.34.0) turned into
 * classes, each with its description, its properties' names, types and formats
 * (`attributeTypeMap`) and, in its declaration file, every property's description and whether it
 * is required. No npm package ships upstream's `swagger.json` or `api/openapi-spec/v3` of a 1.3x
 * release (kubernetes-models ships compiled validators, kubernetes-types declarations only), so
 * the document is rebuilt from this package, nothing of it copied into the source.
 *
 * What the generator dropped — the extensions that say how lists and maps merge — is added back
 * from the Go types' markers (`+listType`, `+listMapKey`, `+patchStrategy`, `+patchMergeKey`,
 * `+structType=atomic`/`+mapType=atomic` in staging/src/k8s.io/api/core/v1/types.go and
 * apimachinery meta/v1/types.go), as the v1.33 document carries them: LIST_EXTENSIONS below.
 */

type Definitions = Record<string, OpenApiSchema>;

/**
 * The served kinds, by their model class: the roots of the definitions built (each kind module
 * names its model, kinds/).
 */
export const SCHEMA_ROOTS: readonly string[] = builtinKinds().flatMap((k) => [
  ...(k.openapi ? [k.openapi] : []),
  ...(k.alsoServedAs ?? []).flatMap((v) => (v.openapi ? [v.openapi] : [])),
]);

/** Kinds of meta/v1, apps/v1, coordination/v1 and policy/v1 among the models (every other `V1…` model is core/v1). */
const META = new Set([
  'Condition',
  'ObjectMeta',
  'OwnerReference',
  'ManagedFieldsEntry',
  'LabelSelector',
  'LabelSelectorRequirement',
  'ListMeta',
  'Status',
  'StatusDetails',
  'StatusCause',
  'DeleteOptions',
  'Preconditions',
]);
const APPS = new Set([
  'ReplicaSet',
  'ReplicaSetSpec',
  'ReplicaSetStatus',
  'ReplicaSetCondition',
  'ReplicaSetList',
  'ControllerRevision',
  'RollingUpdateDeployment',
  'RollingUpdateDaemonSet',
  'RollingUpdateStatefulSetStrategy',
]);
/** apps/v1 kinds whose every `V1{Kind}…` model is theirs (DeploymentSpec, StatefulSetOrdinals, DaemonSetUpdateStrategy, …). */
const APPS_PREFIXES = ['Deployment', 'StatefulSet', 'DaemonSet'];
/** batch/v1 (k8s.io/api/batch/v1/types.go). */
const BATCH = new Set([
  'Job',
  'JobSpec',
  'JobStatus',
  'JobCondition',
  'JobList',
  'JobTemplateSpec',
  'PodFailurePolicy',
  'PodFailurePolicyRule',
  'PodFailurePolicyOnExitCodesRequirement',
  'PodFailurePolicyOnPodConditionsPattern',
  'SuccessPolicy',
  'SuccessPolicyRule',
  'UncountedTerminatedPods',
  'CronJob',
  'CronJobSpec',
  'CronJobStatus',
  'CronJobList',
]);
/** networking.k8s.io/v1 (k8s.io/api/networking/v1/types.go): the Ingress and what it reaches. */
const NETWORKING = new Set([
  'Ingress',
  'IngressSpec',
  'IngressStatus',
  'IngressList',
  'IngressRule',
  'IngressBackend',
  'IngressServiceBackend',
  'ServiceBackendPort',
  'IngressTLS',
  'HTTPIngressRuleValue',
  'HTTPIngressPath',
  'IngressLoadBalancerStatus',
  'IngressLoadBalancerIngress',
  'IngressPortStatus',
]);
/** discovery/v1 (k8s.io/api/discovery/v1/types.go); its EndpointPort is the `DiscoveryV1EndpointPort` model. */
const DISCOVERY = new Set([
  'EndpointSlice',
  'EndpointSliceList',
  'Endpoint',
  'EndpointConditions',
  'EndpointHints',
  'ForZone',
  'ForNode',
]);
/** storage.k8s.io/v1 (k8s.io/api/storage/v1/types.go); its TokenRequest is the `StorageV1TokenRequest` model. */
const STORAGE = new Set([
  'StorageClass',
  'StorageClassList',
  'CSIDriver',
  'CSIDriverSpec',
  'CSIDriverList',
  'CSINode',
  'CSINodeSpec',
  'CSINodeDriver',
  'CSINodeList',
  'VolumeNodeResources',
  'VolumeAttachment',
  'VolumeAttachmentSpec',
  'VolumeAttachmentSource',
  'VolumeAttachmentStatus',
  'VolumeAttachmentList',
  'VolumeError',
]);
const COORDINATION = new Set(['Lease', 'LeaseSpec', 'LeaseList']);
const POLICY = new Set([
  'PodDisruptionBudget',
  'PodDisruptionBudgetSpec',
  'PodDisruptionBudgetStatus',
  'PodDisruptionBudgetList',
  'Eviction',
]);
/** admissionregistration/v1 (k8s.io/api/admissionregistration/v1/types.go); its ServiceReference and WebhookClientConfig are `AdmissionregistrationV1…` models. */
const ADMISSIONREGISTRATION = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingWebhook',
  'MutatingWebhook',
  'RuleWithOperations',
  'MatchCondition',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicySpec',
  'ValidatingAdmissionPolicyStatus',
  'ValidatingAdmissionPolicyBinding',
  'ValidatingAdmissionPolicyBindingSpec',
  'TypeChecking',
  'ExpressionWarning',
  'Validation',
  'Variable',
  'AuditAnnotation',
  'ParamKind',
  'ParamRef',
  'MatchResources',
  'NamedRuleWithOperations',
]);
/** apiextensions/v1 (k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1): `CustomResource…` and these; its ServiceReference and WebhookClientConfig are `ApiextensionsV1…` models. */
const APIEXTENSIONS = new Set([
  'JSONSchemaProps',
  'ExternalDocumentation',
  'SelectableField',
  'ValidationRule',
  'WebhookConversion',
]);
const APIEXTENSIONS_PREFIX = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';

/** The OpenAPI definition name of a model class: `V1PodSpec` → `io.k8s.api.core.v1.PodSpec`. */
export function definitionName(cls: string): string {
  const m = /^(CoreV1|EventsV1|DiscoveryV1|AdmissionregistrationV1|ApiextensionsV1|StorageV1|V1)(.+)$/.exec(cls);
  if (!m) return cls;
  const [, prefix, name] = m;
  if (prefix === 'CoreV1') return `io.k8s.api.core.v1.${name}`;
  if (prefix === 'EventsV1') return `io.k8s.api.events.v1.${name}`;
  if (prefix === 'StorageV1' || STORAGE.has(name)) return `io.k8s.api.storage.v1.${name}`;
  if (prefix === 'DiscoveryV1' || DISCOVERY.has(name)) return `io.k8s.api.discovery.v1.${name}`;
  if (BATCH.has(name)) return `io.k8s.api.batch.v1.${name}`;
  if (NETWORKING.has(name)) return `io.k8s.api.networking.v1.${name}`;
  if (APPS_PREFIXES.some((p) => name.startsWith(p))) return `io.k8s.api.apps.v1.${name}`;
  if (prefix === 'AdmissionregistrationV1' || ADMISSIONREGISTRATION.has(name))
    return `io.k8s.api.admissionregistration.v1.${name}`;
  if (prefix === 'ApiextensionsV1' || APIEXTENSIONS.has(name) || name.startsWith('CustomResource'))
    return `${APIEXTENSIONS_PREFIX}.${name}`;
  if (META.has(name)) return `io.k8s.apimachinery.pkg.apis.meta.v1.${name}`;
  if (APPS.has(name)) return `io.k8s.api.apps.v1.${name}`;
  if (COORDINATION.has(name)) return `io.k8s.api.coordination.v1.${name}`;
  if (POLICY.has(name)) return `io.k8s.api.policy.v1.${name}`;
  return `io.k8s.api.core.v1.${name}`;
}

type Ext = Partial<
  Pick<
    OpenApiSchema,
    | 'x-kubernetes-list-type'
    | 'x-kubernetes-list-map-keys'
    | 'x-kubernetes-patch-strategy'
    | 'x-kubernetes-patch-merge-key'
    | 'x-kubernetes-map-type'
    | 'default'
  >
>;
const map = (...keys: string[]): Ext => ({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys });
const merge = (key: string, strategy = 'merge'): Ext => ({
  'x-kubernetes-patch-strategy': strategy,
  'x-kubernetes-patch-merge-key': key,
});
const ATOMIC: Ext = { 'x-kubernetes-list-type': 'atomic' };
const SET: Ext = { 'x-kubernetes-list-type': 'set' };

/** The list and map markers of the Go types, by model class and property (v1.33). */
const LIST_EXTENSIONS: Readonly<Record<string, Readonly<Record<string, Ext>>>> = {
  V1ObjectMeta: {
    finalizers: { ...SET, 'x-kubernetes-patch-strategy': 'merge' },
    ownerReferences: { ...map('uid'), ...merge('uid') },
    managedFields: ATOMIC,
  },
  V1PodSpec: {
    volumes: { ...map('name'), ...merge('name', 'merge,retainKeys') },
    initContainers: { ...map('name'), ...merge('name') },
    containers: { ...map('name'), ...merge('name') },
    ephemeralContainers: { ...map('name'), ...merge('name') },
    imagePullSecrets: { ...map('name'), ...merge('name') },
    hostAliases: { ...map('ip'), ...merge('ip') },
    tolerations: ATOMIC,
    readinessGates: ATOMIC,
    topologySpreadConstraints: { ...map('topologyKey', 'whenUnsatisfiable'), ...merge('topologyKey') },
    schedulingGates: { ...map('name'), ...merge('name') },
    resourceClaims: { ...map('name'), ...merge('name', 'merge,retainKeys') },
    nodeSelector: { 'x-kubernetes-map-type': 'atomic' },
  },
  V1Container: containerLists(),
  V1EphemeralContainer: containerLists(),
  V1ContainerPort: { protocol: { default: 'TCP' } },
  V1ResourceRequirements: { claims: map('name') },
  V1PodStatus: {
    conditions: { ...map('type'), ...merge('type') },
    podIPs: { ...map('ip'), ...merge('ip') },
    hostIPs: { ...map('ip'), ...merge('ip') },
    initContainerStatuses: ATOMIC,
    containerStatuses: ATOMIC,
    ephemeralContainerStatuses: ATOMIC,
    resourceClaimStatuses: { ...map('name'), ...merge('name', 'merge,retainKeys') },
  },
  V1NodeSpec: { podCIDRs: { ...SET, 'x-kubernetes-patch-strategy': 'merge' }, taints: ATOMIC },
  V1NodeStatus: {
    conditions: { ...map('type'), ...merge('type') },
    addresses: { ...map('type'), ...merge('type') },
    images: ATOMIC,
    volumesInUse: ATOMIC,
    volumesAttached: ATOMIC,
  },
  V1NamespaceSpec: { finalizers: ATOMIC },
  V1NamespaceStatus: { conditions: { ...map('type'), ...merge('type') } },
  V1ReplicaSetStatus: { conditions: { ...map('type'), ...merge('type') } },
  V1PodDisruptionBudgetStatus: { conditions: { ...map('type'), ...merge('type') } },
  V1ServiceAccount: { secrets: { ...map('name'), ...merge('name') }, imagePullSecrets: ATOMIC },
  // k8s.io/api/apps/v1, batch/v1, discovery/v1 and core/v1 (Service, Endpoints) types.go
  V1DeploymentSpec: { strategy: { 'x-kubernetes-patch-strategy': 'retainKeys' } },
  V1DeploymentStatus: { conditions: { ...map('type'), ...merge('type') } },
  V1StatefulSetSpec: { volumeClaimTemplates: ATOMIC },
  V1StatefulSetStatus: { conditions: { ...map('type'), ...merge('type') } },
  V1DaemonSetStatus: { conditions: { ...map('type'), ...merge('type') } },
  V1JobStatus: { conditions: { ...ATOMIC, ...merge('type') } },
  V1PodFailurePolicy: { rules: ATOMIC },
  V1PodFailurePolicyRule: { onPodConditions: ATOMIC },
  V1PodFailurePolicyOnExitCodesRequirement: { values: SET },
  V1SuccessPolicy: { rules: ATOMIC },
  V1UncountedTerminatedPods: { succeeded: SET, failed: SET },
  V1ServiceSpec: {
    ports: { ...map('port', 'protocol'), ...merge('port') },
    selector: { 'x-kubernetes-map-type': 'atomic' },
    clusterIPs: ATOMIC,
    externalIPs: ATOMIC,
    loadBalancerSourceRanges: ATOMIC,
    ipFamilies: ATOMIC,
  },
  V1ServiceStatus: { conditions: { ...map('type'), ...merge('type') } },
  V1LoadBalancerStatus: { ingress: ATOMIC },
  V1LoadBalancerIngress: { ports: ATOMIC },
  V1Endpoints: { subsets: ATOMIC },
  V1EndpointSubset: { addresses: ATOMIC, notReadyAddresses: ATOMIC, ports: ATOMIC },
  V1EndpointSlice: { endpoints: ATOMIC, ports: ATOMIC },
  V1Endpoint: { addresses: SET },
  V1EndpointHints: { forZones: ATOMIC, forNodes: ATOMIC },
  // k8s.io/api/core/v1/types.go (PersistentVolume, PersistentVolumeClaim) and storage/v1/types.go
  V1PersistentVolumeSpec: {
    accessModes: ATOMIC,
    mountOptions: ATOMIC,
    // +structType=granular on the field: the claim reference merges field by field, unlike an ObjectReference elsewhere.
    claimRef: { 'x-kubernetes-map-type': 'granular' },
  },
  V1PersistentVolumeClaimSpec: { accessModes: ATOMIC },
  V1PersistentVolumeClaimStatus: {
    accessModes: ATOMIC,
    conditions: { ...map('type'), ...merge('type') },
    allocatedResourceStatuses: { 'x-kubernetes-map-type': 'granular' },
  },
  V1TopologySelectorTerm: { matchLabelExpressions: ATOMIC },
  V1TopologySelectorLabelRequirement: { values: ATOMIC },
  V1StorageClass: { mountOptions: ATOMIC, allowedTopologies: ATOMIC },
  V1CSIDriverSpec: { volumeLifecycleModes: SET, tokenRequests: ATOMIC },
  V1CSINodeSpec: { drivers: { ...map('name'), ...merge('name') } },
  V1CSINodeDriver: { topologyKeys: ATOMIC },
  // k8s.io/api/admissionregistration/v1/types.go
  V1ValidatingWebhookConfiguration: { webhooks: { ...map('name'), ...merge('name') } },
  V1MutatingWebhookConfiguration: { webhooks: { ...map('name'), ...merge('name') } },
  V1ValidatingWebhook: {
    rules: ATOMIC,
    admissionReviewVersions: ATOMIC,
    matchConditions: { ...map('name'), ...merge('name') },
  },
  V1MutatingWebhook: {
    rules: ATOMIC,
    admissionReviewVersions: ATOMIC,
    matchConditions: { ...map('name'), ...merge('name') },
  },
  V1RuleWithOperations: { operations: ATOMIC, apiGroups: ATOMIC, apiVersions: ATOMIC, resources: ATOMIC },
  V1NamedRuleWithOperations: {
    resourceNames: ATOMIC,
    operations: ATOMIC,
    apiGroups: ATOMIC,
    apiVersions: ATOMIC,
    resources: ATOMIC,
  },
  V1ValidatingAdmissionPolicySpec: {
    validations: ATOMIC,
    auditAnnotations: ATOMIC,
    matchConditions: { ...map('name'), ...merge('name') },
    variables: { ...map('name'), ...merge('name') },
  },
  V1ValidatingAdmissionPolicyStatus: { conditions: map('type') },
  V1TypeChecking: { expressionWarnings: ATOMIC },
  V1ValidatingAdmissionPolicyBindingSpec: { validationActions: SET },
  V1MatchResources: { resourceRules: ATOMIC, excludeResourceRules: ATOMIC },
  // k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types.go, types_jsonschema.go
  V1CustomResourceDefinitionSpec: { versions: ATOMIC },
  V1WebhookConversion: { conversionReviewVersions: ATOMIC },
  V1CustomResourceDefinitionVersion: { additionalPrinterColumns: ATOMIC, selectableFields: ATOMIC },
  V1CustomResourceDefinitionNames: { shortNames: ATOMIC, categories: ATOMIC },
  V1CustomResourceDefinitionStatus: { conditions: map('type'), storedVersions: ATOMIC },
  V1JSONSchemaProps: {
    enum: ATOMIC,
    required: ATOMIC,
    allOf: ATOMIC,
    oneOf: ATOMIC,
    anyOf: ATOMIC,
    'x-kubernetes-list-map-keys': ATOMIC,
    'x-kubernetes-validations': { ...map('rule'), ...merge('rule') },
  },
};

function containerLists(): Record<string, Ext> {
  return {
    ports: { ...map('containerPort', 'protocol'), ...merge('containerPort') },
    env: { ...map('name'), ...merge('name') },
    volumeMounts: { ...map('mountPath'), ...merge('mountPath') },
    volumeDevices: { ...map('devicePath'), ...merge('devicePath') },
    envFrom: ATOMIC,
    command: ATOMIC,
    args: ATOMIC,
    resizePolicy: ATOMIC,
  };
}

/** Structs marked `+structType=atomic` (and LabelSelector, `+structType=atomic` since v1.24). */
const ATOMIC_STRUCTS = new Set([
  'V1LocalObjectReference',
  'V1ObjectReference',
  'V1OwnerReference',
  'V1LabelSelector',
  'V1NodeSelector',
  'V1TypedLocalObjectReference',
  'V1SecretKeySelector',
  'V1ConfigMapKeySelector',
  'V1ObjectFieldSelector',
  'V1ResourceFieldSelector',
  'V1ParamKind',
  'V1Variable',
  'V1ParamRef',
  'V1MatchResources',
  'V1NamedRuleWithOperations',
  'CoreV1EndpointPort',
  'DiscoveryV1EndpointPort',
  'V1EndpointAddress',
]);

/**
 * Models whose `any` properties are any JSON value (apiextensions' JSON, JSONSchemaPropsOrBool,
 * JSONSchemaPropsOrArray, JSONSchemaPropsOrStringArray: definitions without a type); elsewhere
 * `any` is an empty struct (CustomResourceSubresourceStatus) or FieldsV1, an object.
 */
const JSON_VALUED = new Set(['V1JSONSchemaProps']);

/**
 * The properties that are resource.Quantity (or maps of them) in the Go types, which the models
 * type as strings: a quantity decodes from a JSON number too (`cpu: 1`), so the schema marks them
 * `format: quantity` for strict decoding (src/apiserver/strict-decoding.ts).
 */
const QUANTITIES = new Set([
  'V1ResourceRequirements.limits',
  'V1ResourceRequirements.requests',
  'V1VolumeResourceRequirements.limits',
  'V1VolumeResourceRequirements.requests',
  'V1NodeStatus.capacity',
  'V1NodeStatus.allocatable',
  'V1PodSpec.overhead',
  'V1EmptyDirVolumeSource.sizeLimit',
  'V1ResourceFieldSelector.divisor',
  'V1ContainerStatus.allocatedResources',
  'V1PersistentVolumeSpec.capacity',
  'V1PersistentVolumeClaimStatus.capacity',
  'V1PersistentVolumeClaimStatus.allocatedResources',
]);

interface Attribute {
  readonly name: string;
  readonly baseName: string;
  readonly type: string;
  readonly format: string;
}

let cached: Definitions | undefined;

/** The definitions of every served kind and what they use (built once, on first use). */
export function schemaDefinitions(): Definitions {
  if (cached) return cached;
  const models = join(dirname(require.resolve('@kubernetes/client-node/package.json')), 'dist', 'gen', 'models');
  const out: Definitions = {};
  const pending: string[] = SCHEMA_ROOTS.filter((root) => !isGoTypesRoot(root));
  const seen = new Set<string>(pending);
  const need = (cls: string) => {
    if (!seen.has(cls)) {
      seen.add(cls);
      pending.push(cls);
    }
  };
  while (pending.length > 0) {
    const cls = pending.shift()!;
    out[definitionName(cls)] = modelSchema(models, cls, need);
  }
  addLaterFields(out);
  return (cached = out);
}

/** A field of k8s.io/api types.go as scripts/fields-by-release.mjs --types records it. */
interface GoField {
  readonly go: string;
  readonly doc: string;
  readonly markers?: {
    listType?: string;
    listMapKey?: string[];
    mapType?: string;
    structType?: string;
    patchStrategy?: string;
    patchMergeKey?: string;
  };
  readonly required?: boolean;
}
interface GoTypes {
  readonly fields: Record<string, Record<string, GoField>>;
  readonly structs: Record<string, Record<string, GoField>>;
  readonly scalars: Record<string, string>;
  /** Each struct's own comment: its definition's description. */
  readonly docs: Record<string, string>;
}

/**
 * A root named by its definition (`io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicy`)
 * rather than by a client-node model: a kind newer than the models (spec v1.34.0), built from
 * k8s.io/api types.go (types-by-release.json) in addLaterFields.
 */
function isGoTypesRoot(root: string): boolean {
  return root.startsWith('io.k8s.');
}

/**
 * R110 — the fields the client-node models (spec v1.34.0) lack because a v1.34 server does not
 * serve them: added in v1.35/v1.36 (CSIDriverSpec.serviceAccountTokenInSecrets,
 * PodSpec.schedulingGroup …) or removed before v1.34 (PodResourceClaim.source until v1.30). Their
 * types, descriptions and list/map markers come from the types.go of the last release declaring
 * them (types-by-release.json, scripts/fields-by-release.mjs --types); which releases serve each
 * is fields-by-release.json's to say (strict-decoding.ts, definitionsForRelease).
 */
function addLaterFields(out: Definitions): void {
  const types = JSON.parse(readFileSync(join(__dirname, 'types-by-release.json'), 'utf8')) as GoTypes;
  const refTo = (pkg: string, name: string): OpenApiSchema => {
    const def = `${pkg}.${name}`;
    if (!out[def]) {
      const struct = types.structs[def];
      if (!struct) throw new Error(`types-by-release.json: no struct ${def}`);
      const description = types.docs[def];
      out[def] = { ...(description ? { description } : {}), type: 'object', properties: {} };
      out[def] = structSchema(pkg, struct, out[def]);
    }
    return { $ref: `#/definitions/${def}` };
  };
  const goSchema = (pkg: string, go: string): OpenApiSchema => {
    const t = go.replace(/^\*/, '');
    if (t.startsWith('[]')) return { type: 'array', items: goSchema(pkg, t.slice(2)) };
    const dict = /^map\[\w+\](.+)$/.exec(t);
    if (dict) return { type: 'object', additionalProperties: goSchema(pkg, dict[1]) };
    switch (t) {
      case 'string':
        return { type: 'string' };
      case 'bool':
        return { type: 'boolean' };
      case 'int32':
      case 'int64':
        return { type: 'integer', format: t };
      case 'float64':
        return { type: 'number', format: 'double' };
      case 'resource.Quantity':
        return { type: 'string', format: 'quantity' };
      case 'ResourceList':
        return { type: 'object', additionalProperties: { type: 'string', format: 'quantity' } };
      case 'metav1.Time':
        return { type: 'string', format: 'date-time' };
    }
    const meta = /^metav1\.(\w+)$/.exec(t);
    if (meta) return { $ref: `#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.${meta[1]}` };
    const scalar = types.scalars[`${pkg}.${t}`];
    if (scalar) return goSchema(pkg, scalar);
    if (/^\w+$/.test(t)) return refTo(pkg, t);
    throw new Error(`types-by-release.json: Go type ${go} is not modelled`);
  };
  const fieldSchema = (pkg: string, f: GoField): OpenApiSchema => ({
    ...(f.doc ? { description: f.doc } : {}),
    ...goSchema(pkg, f.go),
    ...(f.markers?.listType ? { 'x-kubernetes-list-type': f.markers.listType as 'atomic' } : {}),
    ...(f.markers?.listMapKey ? { 'x-kubernetes-list-map-keys': f.markers.listMapKey } : {}),
    ...(f.markers?.mapType ? { 'x-kubernetes-map-type': f.markers.mapType as 'atomic' } : {}),
    ...(f.markers?.patchStrategy ? { 'x-kubernetes-patch-strategy': f.markers.patchStrategy } : {}),
    ...(f.markers?.patchMergeKey ? { 'x-kubernetes-patch-merge-key': f.markers.patchMergeKey } : {}),
  });
  const structSchema = (pkg: string, fields: Record<string, GoField>, into: OpenApiSchema): OpenApiSchema => {
    const properties = { ...into.properties };
    const required = [...(into.required ?? [])];
    for (const [name, f] of Object.entries(fields)) {
      if (name in properties) continue;
      properties[name] = fieldSchema(pkg, f);
      if (f.required) required.push(name);
    }
    return { ...into, properties, ...(required.length ? { required } : {}) };
  };
  for (const [def, fields] of Object.entries(types.fields)) {
    if (!out[def]) continue;
    out[def] = structSchema(def.slice(0, def.lastIndexOf('.')), fields, out[def]);
  }
  // The kinds newer than the models: their struct, with TypeMeta's apiVersion and kind (inlined,
  // so types.go names them nowhere; their descriptions are every kind's, here the Pod's).
  const typeMeta = out['io.k8s.api.core.v1.Pod'].properties!;
  for (const root of SCHEMA_ROOTS.filter(isGoTypesRoot)) {
    const dot = root.lastIndexOf('.');
    refTo(root.slice(0, dot), root.slice(dot + 1));
    const { properties, ...rest } = out[root];
    out[root] = {
      ...rest,
      properties: { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind, ...properties },
      'x-kubernetes-group-version-kind': [groupVersionKind(root)!],
    };
  }
}

function modelSchema(dir: string, cls: string, need: (cls: string) => void): OpenApiSchema {
  const js = readFileSync(join(dir, `${cls}.js`), 'utf8');
  const dts = readFileSync(join(dir, `${cls}.d.ts`), 'utf8');
  const attrs = JSON.parse(
    new RegExp(`${cls}\\.attributeTypeMap = (\\[[\\s\\S]*?\\]);`).exec(js)?.[1] ?? '[]',
  ) as Attribute[];
  const described = propertyDocs(dts);
  const ext = LIST_EXTENSIONS[cls] ?? {};
  const properties: Record<string, OpenApiSchema> = {};
  const required: string[] = [];
  for (const a of attrs) {
    // The declaration names a property by its model name (`_default` for `default`).
    const doc = described.get(a.name) ?? described.get(a.baseName);
    const format = QUANTITIES.has(`${cls}.${a.baseName}`) ? 'quantity' : a.format;
    properties[a.baseName] = {
      ...(doc?.description ? { description: doc.description } : {}),
      ...typeSchema(a.type, format, need, JSON_VALUED.has(cls)),
      ...ext[a.baseName],
    };
    if (doc?.required) required.push(a.baseName);
  }
  const description = /\/\*\*\s*\n\* ([\s\S]*?)\n\*\/\nexport class/.exec(js)?.[1];
  const gvk = groupVersionKind(cls);
  return {
    ...(description ? { description: unescape(description) } : {}),
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    ...(ATOMIC_STRUCTS.has(cls) ? { 'x-kubernetes-map-type': 'atomic' as const } : {}),
    ...(gvk ? { 'x-kubernetes-group-version-kind': [gvk] } : {}),
  };
}

/** The API group of each definition package. */
const GROUPS: Readonly<Record<string, string>> = {
  'io.k8s.api.core': '',
  'io.k8s.api.apps': 'apps',
  'io.k8s.api.batch': 'batch',
  'io.k8s.api.networking': 'networking.k8s.io',
  'io.k8s.api.discovery': 'discovery.k8s.io',
  'io.k8s.api.policy': 'policy',
  'io.k8s.api.coordination': 'coordination.k8s.io',
  'io.k8s.api.events': 'events.k8s.io',
  'io.k8s.api.storage': 'storage.k8s.io',
  'io.k8s.api.admissionregistration': 'admissionregistration.k8s.io',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions': 'apiextensions.k8s.io',
};

/** The kinds among the roots carry their group, version and kind, as upstream's definitions do. */
function groupVersionKind(cls: string): { group: string; version: string; kind: string } | undefined {
  if (!SCHEMA_ROOTS.includes(cls)) return undefined;
  const m = /^(.+)\.(v1)\.(\w+)$/.exec(definitionName(cls))!;
  return { group: GROUPS[m[1]], version: m[2], kind: m[3] };
}

/** Each property's description and whether it is required (`'name': T` rather than `'name'?: T`), from the declaration file. */
function propertyDocs(dts: string): Map<string, { description?: string; required: boolean }> {
  const out = new Map<string, { description?: string; required: boolean }>();
  const re = /(?:\/\*\*\s*\n\s*\* ((?:(?!\*\/)[\s\S])*?)\n\s*\*\/\s*\n)?\s*'([^']+)'(\?)?:/g;
  for (let m = re.exec(dts); m; m = re.exec(dts))
    out.set(m[2], { description: m[1] ? unescape(m[1]) : undefined, required: m[3] === undefined });
  return out;
}

function unescape(text: string): string {
  return text
    .replace(/\n\s*\* ?/g, '\n')
    .replace(/\\"/g, '"')
    .replace(/\\'/g, "'")
    .trim();
}

/** A property type of the generated models as an OpenAPI schema (and the models it references). */
function typeSchema(type: string, format: string, need: (cls: string) => void, anyJson = false): OpenApiSchema {
  const array = /^Array<(.+)>$/.exec(type);
  if (array) return { type: 'array', items: typeSchema(array[1], format, need, anyJson) };
  const dict = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (dict) return { type: 'object', additionalProperties: typeSchema(dict[1], format, need, anyJson) };
  switch (type) {
    case 'string':
      return { type: 'string', ...(format && format !== 'date-time' ? { format } : {}) };
    case 'number':
      return format === 'int32' || format === 'int64'
        ? { type: 'integer', format }
        : { type: 'number', format: format || 'double' };
    case 'boolean':
      return { type: 'boolean' };
    case 'Date':
      return { type: 'string', format: 'date-time' };
    case 'V1MicroTime':
      // meta/v1 MicroTime: a string with microseconds (the generator gives it no model).
      return { type: 'string', format: 'date-time' };
    case 'IntOrString':
      return { type: 'string', format: 'int-or-string', 'x-kubernetes-int-or-string': true };
    case 'any':
      return anyJson ? {} : { type: 'object' };
    default:
      need(type);
      return { $ref: `#/definitions/${definitionName(type)}` };
  }
}
