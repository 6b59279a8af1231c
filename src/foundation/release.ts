/**
 * The Kubernetes release a component models, and its feature gates.
 *
 * Every behaviour that differs between releases asks one question at its branch point —
 * `release.atLeast(27)` or `release.enabled('SidecarContainers')` — next to a comment naming the
 * upstream function and the PR or release where it changed. A gate's default follows the release
 * (pkg/features/kube_features.go, the versioned defaults); a scenario may override a gate the way
 * `--feature-gates` does, with the same refusals as component-base/featuregate (unknown gate,
 * gate locked to its default).
 */

export const SUPPORTED_MINORS: readonly number[] = [26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36];
export const DEFAULT_MINOR = 36;

const RANGE = `v1.${SUPPORTED_MINORS[0]} to v1.${SUPPORTED_MINORS[SUPPORTED_MINORS.length - 1]}`;

/** A gate's state in one release: its maturity, default, and whether it can be changed. */
interface GateState {
  /** 'absent': not a gate of that release (not yet added, or removed); `default` is then how that release behaves. */
  readonly stage: 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED' | 'absent';
  readonly default: boolean;
  readonly locked: boolean;
}

const ABSENT_OFF: GateState = { stage: 'absent', default: false, locked: true };
const ABSENT_ON: GateState = { stage: 'absent', default: true, locked: true };
const ALPHA: GateState = { stage: 'ALPHA', default: false, locked: false };
const BETA_OFF: GateState = { stage: 'BETA', default: false, locked: false };
const BETA_ON: GateState = { stage: 'BETA', default: true, locked: false };
/** GA gates are locked to true (LockToDefault) in every gate below. */
const GA: GateState = { stage: 'GA', default: true, locked: true };
const DEPRECATED_OFF: GateState = { stage: 'DEPRECATED', default: false, locked: false };
const DEPRECATED_LOCKED_OFF: GateState = { stage: 'DEPRECATED', default: false, locked: true };
const DEPRECATED_ON: GateState = { stage: 'DEPRECATED', default: true, locked: false };
const DEPRECATED_LOCKED_ON: GateState = { stage: 'DEPRECATED', default: true, locked: true };

/**
 * The gates that touch pod deletion, each as `[first minor, state]` steps from 1.26 on
 * (pkg/features/versioned_kube_features.go of 1.32 and 1.35; release notes for the removals).
 * A gate absent before its first step behaves as ABSENT_OFF unless its first step says otherwise.
 */
const GATES = {
  // KEP-3329: DisruptionTarget conditions; β on 1.26, GA 1.31 (#125461), removed 1.34 (#129501).
  PodDisruptionConditions: [
    [26, BETA_ON],
    [31, GA],
    [34, ABSENT_ON],
  ],
  // KEP-2268 non-graceful node shutdown: β on 1.26 (#113511), GA 1.28 (#118228), removed 1.32 (#127019).
  NodeOutOfServiceVolumeDetach: [
    [26, BETA_ON],
    [28, GA],
    [32, ABSENT_ON],
  ],
  GracefulNodeShutdown: [[26, BETA_ON]],
  GracefulNodeShutdownBasedOnPodPriority: [[26, BETA_ON]],
  // KEP-753 sidecar containers: α 1.28, β on 1.29, GA 1.33.
  SidecarContainers: [
    [26, ABSENT_OFF],
    [28, ALPHA],
    [29, BETA_ON],
    [33, GA],
  ],
  // KEP-3960 preStop sleep: α 1.29, β on 1.30, GA 1.34.
  PodLifecycleSleepAction: [
    [26, ABSENT_OFF],
    [29, ALPHA],
    [30, BETA_ON],
    [34, GA],
  ],
  // KEP-4818 sleep of 0 s: α 1.32 (#127094), β on 1.33 (#130621), GA 1.34.
  PodLifecycleSleepActionAllowZero: [
    [26, ABSENT_OFF],
    [32, ALPHA],
    [33, BETA_ON],
    [34, GA],
  ],
  // KEP-5067 observedGeneration: α 1.33, β on 1.34 (#132912), GA 1.35.
  PodObservedGenerationTracking: [
    [26, ABSENT_OFF],
    [33, ALPHA],
    [34, BETA_ON],
    [35, GA],
  ],
  // KEP-3017 unhealthyPodEvictionPolicy of PodDisruptionBudgets: α 1.26 (#113375), β on 1.27, GA 1.31.
  PDBUnhealthyPodEvictionPolicy: [
    [26, ALPHA],
    [27, BETA_ON],
    [31, GA],
  ],
  // KEP-3939 (#118772): pod GC marks Failed before deleting; α 1.28, β on 1.29, GA 1.34.
  JobPodReplacementPolicy: [
    [26, ABSENT_OFF],
    [28, ALPHA],
    [29, BETA_ON],
    [34, GA],
  ],
  // KEP-4368 Job managedBy: α 1.30 (#123273), β on 1.32, GA 1.35; with it (or JobPodReplacementPolicy) from 1.31 the job controller delays Complete/Failed until no pod terminates (#125510).
  JobManagedBy: [
    [26, ABSENT_OFF],
    [30, ALPHA],
    [32, BETA_ON],
    [35, GA],
  ],
  // KEP-1847 StatefulSet PVC retention policy: α 1.23, β on 1.27 (#116269), GA 1.32.
  StatefulSetAutoDeletePVC: [
    [26, ALPHA],
    [27, BETA_ON],
    [32, GA],
  ],
  // KEP-4017 the apps.kubernetes.io/pod-index label on StatefulSet (and indexed Job) pods: β on 1.28 (#119232), GA 1.32.
  PodIndexLabel: [
    [26, ABSENT_OFF],
    [28, BETA_ON],
    [32, GA],
  ],
  // KEP-3902 taint eviction split out of node lifecycle: β on 1.29 (#119208), GA 1.34.
  SeparateTaintEvictionController: [
    [26, ABSENT_OFF],
    [29, BETA_ON],
    [34, GA],
  ],
  // KEP-5080: backported off by default into 1.30–1.32, β on 1.33, GA 1.34.
  OrderedNamespaceDeletion: [
    [26, ABSENT_OFF],
    [30, BETA_OFF],
    [33, BETA_ON],
    [34, GA],
  ],
  // KEP-3085 (named PodHasNetworkCondition before 1.28, #117702): α 1.28, β on 1.29.
  PodReadyToStartContainersCondition: [
    [26, ABSENT_OFF],
    [28, ALPHA],
    [29, BETA_ON],
  ],
  // KEP-3857 recursive read-only mounts (and volumeMounts in container statuses): α 1.30, β on 1.31, GA 1.33.
  RecursiveReadOnlyMounts: [
    [26, ABSENT_OFF],
    [30, ALPHA],
    [31, BETA_ON],
    [33, GA],
  ],
  // KEP-4960 container stop signals: α 1.33.
  ContainerStopSignals: [
    [26, ABSENT_OFF],
    [33, ALPHA],
  ],
  // KEP-3521 pod scheduling gates (spec.schedulingGates): α 1.26, β on 1.27 (#116829), GA 1.30 (#123575).
  PodSchedulingReadiness: [
    [26, ALPHA],
    [27, BETA_ON],
    [30, GA],
  ],
  // KEP-4247 queueing hints: the gate came in 1.28.0, β off (#120129; versioned_kube_features.go of
  // 1.33+, where an earlier copy's 1.27 entry is gone: 1.27 has no hints), on 1.32 (#128472), GA 1.34.
  SchedulerQueueingHints: [
    [26, ABSENT_OFF],
    [28, BETA_OFF],
    [32, BETA_ON],
    [34, GA],
  ],
  // KEP-5142 (#130772): an empty active queue pops the backoff queue at once; β on 1.33.
  SchedulerPopFromBackoffQ: [
    [26, ABSENT_OFF],
    [33, BETA_ON],
  ],
  // KEP-5278 nominatedNodeName for expectation: α 1.34, β on 1.35 (versioned_kube_features.go). bindingCycle writes
  // status.nominatedNodeName before a PreBind plugin that has work to do (W66).
  NominatedNodeNameForExpectation: [
    [26, ABSENT_OFF],
    [34, ALPHA],
    [35, BETA_ON],
  ],
  // KEP-5278: BindingREST clears status.nominatedNodeName in the binding write; α 1.34, β on 1.35 (W66).
  ClearingNominatedNodeNameAfterBinding: [
    [26, ABSENT_OFF],
    [34, ALPHA],
    [35, BETA_ON],
  ],
  // KEP-3973 status.terminatingReplicas of ReplicaSets and Deployments: α 1.33 (#128546), β on 1.35.
  DeploymentReplicaSetTerminatingReplicas: [
    [26, ABSENT_OFF],
    [33, ALPHA],
    [35, BETA_ON],
  ],
  // #122890: soft eviction keeps min(evictionMaxPodGracePeriod, spec grace); the gate restores the old overwrite.
  AllowOverwriteTerminationGracePeriodSeconds: [
    [26, ABSENT_ON],
    [32, DEPRECATED_OFF],
    [35, DEPRECATED_LOCKED_OFF],
  ],
  // KEP-1669 kube-proxy falls back to serving terminating endpoints: β on 1.26, GA 1.28 (#117718), removed 1.30 (#122134).
  ProxyTerminatingEndpoints: [
    [26, BETA_ON],
    [28, GA],
    [30, ABSENT_ON],
  ],
  // KEP-4781 (#134746): a kubelet restart no longer resets started/ready; the gate restores the old reset.
  ChangeContainerStatusOnKubeletRestart: [
    [26, ABSENT_ON],
    [35, DEPRECATED_OFF],
  ],
  // KEP-2681 status.hostIPs: α 1.28, β on 1.29, GA 1.30 (#122870), removed 1.32.
  PodHostIPs: [
    [26, ABSENT_OFF],
    [28, ALPHA],
    [29, BETA_ON],
    [30, GA],
    [32, ABSENT_ON],
  ],
  // KEP-4004: the kubelet stops writing nodeInfo.kubeProxyVersion; α 1.29 (#120954), deprecated
  // off from 1.31 (1.31.0 shipped it β on; the later patches and 1.32 turned it off), on from 1.33,
  // locked on in 1.36 (#136673).
  DisableNodeKubeProxyVersion: [
    [26, ABSENT_OFF],
    [29, ALPHA],
    [31, DEPRECATED_OFF],
    [33, DEPRECATED_ON],
    [36, DEPRECATED_LOCKED_ON],
  ],
  // KEP-961 StatefulSet rollingUpdate.maxUnavailable: α 1.24, β on 1.35, off again in 1.36 for a
  // regression in Parallel pod management (#137904; cherry-picked into 1.35.4). Read only by R320's
  // drop of rollingUpdate.maxUnavailable: StatefulSet rolling updates are not modelled.
  MaxUnavailableStatefulSet: [
    [26, ALPHA],
    [35, BETA_ON],
    [36, BETA_OFF],
  ],
  // KEP-3716 webhook matchConditions (CEL): α 1.27 (#116261), β on 1.28, GA 1.30, the gate removed in 1.33 (kubernetes f167454).
  AdmissionWebhookMatchConditions: [
    [26, ABSENT_OFF],
    [27, ALPHA],
    [28, BETA_ON],
    [30, GA],
    [33, ABSENT_ON],
  ],
  // KEP-4008 CRD validation ratcheting (apiextensions-apiserver pkg/features): α 1.28, β on 1.30, GA 1.33.
  CRDValidationRatcheting: [
    [26, ABSENT_OFF],
    [28, ALPHA],
    [30, BETA_ON],
    [33, GA],
  ],
  // KEP-5647 staleness mitigation: each controller skips a sync while an informer has not yet seen
  // its own last write for that object; β on from 1.36 (DaemonSet #134937, Job #137210,
  // ReplicaSet #137212, StatefulSet #137254).
  StaleControllerConsistencyDaemonSet: [
    [26, ABSENT_OFF],
    [36, BETA_ON],
  ],
  StaleControllerConsistencyJob: [
    [26, ABSENT_OFF],
    [36, BETA_ON],
  ],
  StaleControllerConsistencyReplicaSet: [
    [26, ABSENT_OFF],
    [36, BETA_ON],
  ],
  StaleControllerConsistencyStatefulSet: [
    [26, ABSENT_OFF],
    [36, BETA_ON],
  ],
  // KEP-5307 container restart rules (a regular container's restartPolicy, restartPolicyRules):
  // α 1.34 (#132923), β on 1.35.
  ContainerRestartRules: [
    [26, ABSENT_OFF],
    [34, ALPHA],
    [35, BETA_ON],
  ],
  // KEP-5532 the RestartAllContainers action: α 1.35 (#134345), β on 1.36 (#136681). kube-apiserver
  // accepts the action (V51); the kubelet restarts the whole pod in place (V70,
  // src/components/kubelet/restart-all.ts); with it off the kubelet treats the action as no match.
  RestartAllContainersOnContainerExits: [
    [26, ABSENT_OFF],
    [35, ALPHA],
    [36, BETA_ON],
  ],
  // Service names as DNS-1123 labels (a leading digit allowed; ValidateServiceName): α 1.34, β on 1.36.
  RelaxedServiceNameValidation: [
    [26, ABSENT_OFF],
    [34, ALPHA],
    [36, BETA_ON],
  ],
  // Streaming lists (watch with sendInitialEvents=true), kube-apiserver's side: α 1.27, β on 1.32,
  // β off 1.33 ("the json and proto streaming encoders appear to work better"), β on again 1.34
  // (staging/src/k8s.io/apiserver/pkg/features/kube_features.go WatchList, tags v0.27–v0.36).
  WatchList: [
    [26, ABSENT_OFF],
    [27, ALPHA],
    [32, BETA_ON],
    [33, BETA_OFF],
    [34, BETA_ON],
  ],
  // KEP-3962 MutatingAdmissionPolicy (k8s.io/apiserver pkg/features/kube_features.go): α off 1.32
  // (v1alpha1), β still off 1.34 (v1beta1), GA on 1.36 (v1) — GA without LockToDefault, so it can
  // still be turned off there. Only v1 is modelled (R317): served where the gate is on from 1.36.
  MutatingAdmissionPolicy: [
    [26, ABSENT_OFF],
    [32, ALPHA],
    [34, BETA_OFF],
    [36, { stage: 'GA', default: true, locked: false }],
  ],
  // KEP-4858 stricter IP and CIDR validation of the legacy fields (kube-apiserver): α off 1.33
  // (kubernetes#128786; versioned_kube_features.go), β on 1.36 (kep.yaml milestone beta v1.36; the
  // 1.36 kube-apiserver flag reference lists it "BETA - default=true").
  StrictIPCIDRValidation: [
    [26, ABSENT_OFF],
    [33, ALPHA],
    [36, BETA_ON],
  ],
  // The gates of fields dropped on write while off (R320, disabled-fields.ts), from
  // pkg/features/versioned_kube_features.go (a 1.35-era copy; the releases where a gate is absent
  // before its first step as ABSENT_OFF). GA without LockToDefault can still be turned off.
  // KEP-4671 spec.workloadRef (1.35) / spec.schedulingGroup (1.36): α 1.35, still α 1.36 (β 1.37).
  GenericWorkload: [
    [26, ABSENT_OFF],
    [35, ALPHA],
  ],
  // KEP-2837 pod-level resources (spec.resources): α 1.32, β on 1.34.
  PodLevelResources: [
    [26, ABSENT_OFF],
    [32, ALPHA],
    [34, BETA_ON],
  ],
  // KEP-4762 spec.hostnameOverride: α 1.34, β on 1.35.
  HostnameOverride: [
    [26, ABSENT_OFF],
    [34, ALPHA],
    [35, BETA_ON],
  ],
  // KEP-1287 in-place resize (a container's resizePolicy): α 1.27, β on 1.33, GA 1.35.
  InPlacePodVerticalScaling: [
    [26, ABSENT_OFF],
    [27, ALPHA],
    [33, BETA_ON],
    [35, GA],
  ],
  // KEP-3619 securityContext.supplementalGroupsPolicy: α 1.31, β on 1.33, GA 1.35.
  SupplementalGroupsPolicy: [
    [26, ABSENT_OFF],
    [31, ALPHA],
    [33, BETA_ON],
    [35, GA],
  ],
  // KEP-1710 securityContext.seLinuxChangePolicy: α 1.32, β on 1.33.
  SELinuxChangePolicy: [
    [26, ABSENT_OFF],
    [32, ALPHA],
    [33, BETA_ON],
  ],
  // KEP-127 spec.hostUsers: α (named UserNamespacesStatelessPodsSupport up to 1.27), β off 1.30, β on 1.33.
  UserNamespacesSupport: [
    [26, ALPHA],
    [30, BETA_OFF],
    [33, BETA_ON],
  ],
  // KEP-4381 spec.resourceClaims and a container's resources.claims: α 1.26, β off 1.32, GA on
  // 1.34 (not locked until 1.35).
  DynamicResourceAllocation: [
    [26, ALPHA],
    [32, BETA_OFF],
    [34, { stage: 'GA', default: true, locked: false }],
    [35, GA],
  ],
  // KEP-4444 a Service's spec.trafficDistribution: α 1.30, β on 1.31, GA 1.33.
  ServiceTrafficDistribution: [
    [26, ABSENT_OFF],
    [30, ALPHA],
    [31, BETA_ON],
    [33, GA],
  ],
  // KEP-3998 a Job's spec.successPolicy: α 1.30, β on 1.31, GA 1.33.
  JobSuccessPolicy: [
    [26, ABSENT_OFF],
    [30, ALPHA],
    [31, BETA_ON],
    [33, GA],
  ],
  // KEP-3850 a Job's spec.backoffLimitPerIndex and maxFailedIndexes: α 1.28, β on 1.29, GA 1.33.
  JobBackoffLimitPerIndex: [
    [26, ABSENT_OFF],
    [28, ALPHA],
    [29, BETA_ON],
    [33, GA],
  ],
  // KEP-3335 a StatefulSet's spec.ordinals: α 1.26, β on 1.27 (#115260), GA 1.31.
  StatefulSetStartOrdinal: [
    [26, ALPHA],
    [27, BETA_ON],
    [31, GA],
  ],
  // KEP-3751 a PersistentVolumeClaim's spec.volumeAttributesClassName: α 1.29, β off 1.31, GA on
  // 1.34, locked 1.36.
  VolumeAttributesClass: [
    [26, ABSENT_OFF],
    [29, ALPHA],
    [31, BETA_OFF],
    [34, { stage: 'GA', default: true, locked: false }],
    [36, GA],
  ],
} satisfies Record<string, readonly (readonly [number, GateState])[]>;

export type FeatureGate = keyof typeof GATES;

/**
 * Behaviour changes that came without a gate of their own: the first minor that has each, with
 * the PR. A minor above the supported range means no modelled release has it yet (the rule in
 * docs/rules names the release where it lands).
 */
const CHANGES = {
  // kubernetes#134660 (KEP-3085, v1.36): kuberuntime SyncPod calls RuntimeHelper.OnPodSandboxReady
  // right after a new sandbox is up, and the kubelet writes PodReadyToStartContainers True then,
  // before any image pull; before, the condition waited for the next status after that SyncPod.
  OnPodSandboxReady: 36,
  // kubernetes#141766 (merged 2026-09-01, after release-1.37 was cut: first in v1.38): prober_manager.go
  // StopLivenessAndStartup also stops the probes of restartable init containers (sidecars).
  StopSidecarLivenessAndStartup: 38,
  // kubernetes#135428 (v1.36; cherry-picked into release-1.35 as #136097): statefulset
  // syncStatefulSet looks again when a ready pod is not yet available, at the moment the earliest
  // such pod becomes available (controller.FindMinNextPodAvailabilityCheck), where it looked again
  // minReadySeconds after the sync and so could count a pod as available up to minReadySeconds late.
  StatefulSetAvailabilityCheckOnTime: 36,
  // kubernetes#132121 (v1.34): replicaset syncReplicaSet looks again whenever readyReplicas and
  // availableReplicas differ, at the moment the earliest ready pod becomes available
  // (controller.FindMinNextPodAvailabilityCheck), where it looked again minReadySeconds after the sync
  // only once every replica was ready — up to minReadySeconds late for a pod that turned ready later.
  ReplicaSetAvailabilityCheckOnTime: 34,
  // kubectl pkg/drain filters.go unmanagedFatal: "Pods declare no controller" reworded to
  // "cannot delete Pods that declare no controller" (kubectl#1467, kubernetes c7549fe, v1.30)…
  KubectlDrainUnmanagedReworded: 30,
  // …whose "cannot delete" errors() then printed twice, dropped again (kubernetes#135817, kubernetes 468d3a8, v1.36).
  KubectlDrainUnmanagedSingleCannotDelete: 36,
  // client-go features/known_features.go WatchListClient: β off v1.30–v1.34, β on from v1.35, so
  // kubectl's informers (wait/delete.go IsDeleted, cache.ToListWatcherWithWatchListSemantics from
  // v1.35) ask for a streaming list first and fall back to LIST then WATCH where it is refused.
  // A client-go gate (KUBE_FEATURE_WatchListClient), not the server's: a release change here.
  KubectlWatchListClient: 35,
  // apimachinery meta/v1 types.go ObjectMeta.CreationTimestamp gained `omitzero`: a client's object
  // with no creation time (kubectl drain's Eviction) is encoded without `"creationTimestamp":null`
  // (kubernetes#130989, "Omit null creationTimestamp", v1.34).
  OmitNullCreationTimestamp: 34,
  // pkg/api/v1/pod/util.go FindPort, which the Endpoints controller uses, also looks up a named
  // targetPort in restartable init containers (sidecars) (kubernetes#127976, v1.32).
  EndpointsFindPortSidecars: 32,
  // staging/src/k8s.io/endpointslice/utils.go findPort, the EndpointSlice controller's own copy,
  // got the same lookup only later (kubernetes#128850, v1.33).
  EndpointSliceFindPortSidecars: 33,
  // pkg/apis/core/validation/validation.go validateContainerRestartPolicy: too many
  // restartPolicyRules or exit-code values reported as a count (field.TooMany, "must have at most
  // N items") instead of field.TooLong's "may not be more than N bytes" (kubernetes#137136, v1.36).
  RestartRulesTooManyItems: 36,
  // …and an unknown rule action lists RestartAllContainers among the supported values when its
  // gate is on, where it listed "Restart" alone (kubernetes#137369, v1.36).
  RestartRulesListAllActions: 36,
  // apimachinery validation.IsDNS1123Label: a name that is a valid DNS subdomain but not a label
  // (it has dots) says "must not contain dots" instead of the label regex (kubernetes commit
  // 276c7e86, "Change DNS Label validation to check for dots", 1.27).
  DnsLabelMustNotContainDots: 27,
  // apimachinery field.TooLong: "must have at most N bytes" became "may not be more than N bytes"
  // (kubernetes#128553, "Validation: merge TooLong and TooLongMaxLen", 1.32).
  TooLongMayNotBeMoreThan: 32,
  // apimachinery field.Error.ErrorBody: a struct, map or list value prints as JSON instead of Go's
  // %#v (`{"app":"web"}`, not `map[string]string{"app":"web"}`); "at most 1 byte" in the singular
  // (kubernetes#132314, "Nicer value rendering in API errors", 1.34).
  FieldErrorValuesAsJson: 34,
  // apimachinery ValidateOwnerReferences (and other validation details): the detail no longer
  // repeats the field's name — `kind must not be empty` became `must not be empty`
  // (kubernetes#132513, "Cleanup: Remove field name from invalid field detail message", 1.34).
  DetailsWithoutFieldName: 34,
  // kubernetes#122550 "IP validation cleanup" (apimachinery b81059e0 validation.IsValidCIDR and
  // 89b94145 IsValidIP with a field path, 1.30): a bad CIDR is reported per entry, `must be a valid
  // CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)`, where a Node's podCIDRs said `must be valid
  // CIDR` (the whole list as the value) and a Service's loadBalancerSourceRanges one `must be a list
  // of IP ranges` for the whole list; a pod's hostAliases[i].ip and dnsConfig.nameservers[i] get
  // IsValidIP's message, where they said `must be valid IP address` (hostAliases without the index).
  IPValidationCleanup: 30,
  // pkg/apis/discovery/validation validateEndpoints: an EndpointSlice address is checked as an IP
  // first, and only a valid one for its family (`must be an IPv4 address`) and its range, where
  // IsValidIPv4Address and ValidateNonSpecialIP both reported a bad one (kubernetes ba189de7,
  // "Slightly improve EndpointSlice address validation", 1.33).
  EndpointSliceAddressCheckedOnce: 33,
} as const satisfies Record<string, number>;

export type ReleaseChange = keyof typeof CHANGES;

export const FEATURE_GATES = Object.keys(GATES) as FeatureGate[];

function gateState(gate: FeatureGate, minor: number): GateState {
  let state: GateState = ABSENT_OFF;
  for (const [from, s] of GATES[gate]) if (minor >= from) state = s;
  return state;
}

/** The gates a release knows (can be set with --feature-gates), for error messages. */
function knownGates(minor: number): FeatureGate[] {
  return FEATURE_GATES.filter((g) => gateState(g, minor).stage !== 'absent');
}

function isFeatureGate(name: string): name is FeatureGate {
  return Object.prototype.hasOwnProperty.call(GATES, name);
}

function checkMinor(minor: number, text: string): void {
  if (!SUPPORTED_MINORS.includes(minor))
    throw new Error(`Kubernetes ${text} is not supported: the simulation models releases ${RANGE}`);
}

export class Release {
  private constructor(
    readonly minor: number,
    private readonly overrides: Readonly<Partial<Record<FeatureGate, boolean>>>,
  ) {}

  /** Throws a clear error for a release outside 1.26–1.36 or a gate that release cannot set. */
  static of(minor: number, gates: Partial<Record<string, boolean>> = {}): Release {
    if (!Number.isInteger(minor))
      throw new Error(`Kubernetes minor release must be a whole number, not ${minor} (supported: ${RANGE})`);
    checkMinor(minor, `v1.${minor}`);
    let release = new Release(minor, {});
    for (const [gate, value] of Object.entries(gates)) if (value !== undefined) release = release.withGate(gate, value);
    return release;
  }

  /** Parses "1.30" or "v1.30" (a patch number such as v1.30.2 is accepted and ignored). */
  static parse(text: string, gates: Partial<Record<string, boolean>> = {}): Release {
    const m = /^v?1\.(\d+)(?:\.\d+)?$/.exec(text.trim());
    if (!m) throw new Error(`"${text}" is not a Kubernetes release: write it as 1.NN or v1.NN, from ${RANGE}`);
    checkMinor(Number(m[1]), `"${text}"`);
    return Release.of(Number(m[1]), gates);
  }

  atLeast(minor: number): boolean {
    return this.minor >= minor;
  }

  /** The release has a behaviour change that has no gate (CHANGES). */
  has(change: ReleaseChange): boolean {
    return this.minor >= CHANGES[change];
  }

  enabled(gate: FeatureGate): boolean {
    return this.overrides[gate] ?? gateState(gate, this.minor).default;
  }

  /** The gates a scenario changed from their defaults. */
  gateOverrides(): Partial<Record<FeatureGate, boolean>> {
    return { ...this.overrides };
  }

  /**
   * This release with one gate set, refused as component-base/featuregate's Set refuses it:
   * a gate the release does not know, or one locked to its default.
   */
  withGate(gate: string, value: boolean): Release {
    const known = knownGates(this.minor);
    if (!isFeatureGate(gate) || !known.includes(gate)) {
      throw new Error(`unrecognized feature gate: ${gate} (Kubernetes ${this} knows: ${known.join(', ')})`);
    }
    const state = gateState(gate, this.minor);
    if (state.locked && value !== state.default)
      throw new Error(
        `cannot set feature gate ${gate} to ${value}, feature is locked to ${state.default} in Kubernetes ${this}`,
      );
    return new Release(this.minor, { ...this.overrides, [gate]: value });
  }

  /** The same gate overrides on another release (a kubelet skewed from the control plane). */
  withMinor(minor: number): Release {
    return Release.of(minor, this.overrides);
  }

  toString(): string {
    return `v1.${this.minor}`;
  }
}

export const DEFAULT_RELEASE: Release = Release.of(DEFAULT_MINOR);
