import type { Pod } from '../../../apimachinery/types';
import { podPriority } from '../nodeshutdown';
import { formatQuantity, parseQuantity, QuantityError, type Quantity } from './quantity';

export const HELPERS_SOURCE = 'pkg/kubelet/eviction/helpers.go';

/** helpers.go Reason: the status reason of an evicted pod (K72). */
export const EVICTED_REASON = 'Evicted';

/** The one signal modelled: memory.available (the node's memory minus its working set). */
export const SIGNAL_MEMORY_AVAILABLE = 'memory.available';
/** The node condition and the resource memory.available maps to (signalToNodeCondition, signalToResource). */
export const MEMORY_PRESSURE = 'MemoryPressure';
export const RESOURCE_MEMORY = 'memory';

/** Signals upstream knows but this simulation does not model (no disk, inodes or pids are simulated). */
const UNMODELLED_SIGNALS = new Set([
  'allocatableMemory.available',
  'nodefs.available',
  'nodefs.inodesFree',
  'imagefs.available',
  'imagefs.inodesFree',
  'containerfs.available',
  'containerfs.inodesFree',
  'pid.available',
]);

/** evictionapi.Threshold for memory.available with a LessThan operator and an absolute quantity. */
export interface Threshold {
  signal: typeof SIGNAL_MEMORY_AVAILABLE;
  value: Quantity;
  /** 0 for a hard threshold (isHardEvictionThreshold). */
  gracePeriodMs: number;
}

/** A kubelet eviction configuration that cannot be used (upstream: the kubelet refuses to start). */
export class EvictionConfigError extends Error {}

/** The KubeletConfiguration fields the eviction manager reads (defaults: DEFAULT_EVICTION_CONFIG). */
export interface EvictionConfig {
  /** evictionHard: signal → quantity; upstream's Linux default includes memory.available<100Mi. */
  evictionHard: Readonly<Record<string, string>>;
  evictionSoft: Readonly<Record<string, string>>;
  /** evictionSoftGracePeriod: signal → duration in ms (parsed from Go durations by the steps). */
  evictionSoftGracePeriodMs: Readonly<Record<string, number>>;
  /** evictionMaxPodGracePeriod: the grace a soft eviction gives at most (default 0). */
  evictionMaxPodGracePeriodSeconds: number;
  /** evictionPressureTransitionPeriod (default 5m): how long a node condition stays after its threshold is no longer met. */
  evictionPressureTransitionPeriodMs: number;
}

export const DEFAULT_EVICTION_CONFIG: EvictionConfig = {
  evictionHard: { [SIGNAL_MEMORY_AVAILABLE]: '100Mi' },
  evictionSoft: {},
  evictionSoftGracePeriodMs: {},
  evictionMaxPodGracePeriodSeconds: 0,
  evictionPressureTransitionPeriodMs: 5 * 60_000,
};

/**
 * ParseThresholdConfig (K71): the hard thresholds, then the soft ones, each of which needs a grace
 * period ("grace period must be specified for the soft eviction threshold …"). Only memory.available
 * with an absolute quantity is modelled; a percentage needs the node's capacity, which is not.
 */
export function parseThresholdConfig(
  config: Pick<EvictionConfig, 'evictionHard' | 'evictionSoft' | 'evictionSoftGracePeriodMs'>,
): Threshold[] {
  const parse = (
    statements: Readonly<Record<string, string>>,
    field: string,
    grace: (signal: string) => number,
  ): Threshold[] =>
    Object.entries(statements).map(([signal, text]) => {
      if (UNMODELLED_SIGNALS.has(signal))
        throw new EvictionConfigError(
          `${field}: signal ${signal} is not modelled (the simulation has no disks, inodes or pids): only ${SIGNAL_MEMORY_AVAILABLE}`,
        );
      if (signal !== SIGNAL_MEMORY_AVAILABLE)
        throw new EvictionConfigError(`${field}: unsupported eviction signal ${signal}`);
      if (text.trim().endsWith('%'))
        throw new EvictionConfigError(
          `${field}: ${signal}: a percentage needs the node's memory capacity, which the simulation does not model; write a quantity such as 500Mi`,
        );
      try {
        return { signal: SIGNAL_MEMORY_AVAILABLE, value: parseQuantity(text), gracePeriodMs: grace(signal) };
      } catch (e) {
        if (e instanceof QuantityError) throw new EvictionConfigError(`${field}: ${signal}: ${e.message}`);
        throw e;
      }
    });
  const hard = parse(config.evictionHard, 'evictionHard', () => 0);
  const soft = parse(config.evictionSoft, 'evictionSoft', (signal) => {
    const ms = config.evictionSoftGracePeriodMs[signal];
    if (ms === undefined)
      throw new EvictionConfigError(`grace period must be specified for the soft eviction threshold ${signal}`);
    return ms;
  });
  return [...hard, ...soft];
}

/** A threshold as the kubelet logs it: memory.available<100Mi, with its grace period for a soft one. */
export function formatThreshold(t: Threshold): string {
  return `${t.signal}<${formatQuantity(t.value.bytes, t.value.format)}${t.gracePeriodMs > 0 ? ` (soft, grace ${t.gracePeriodMs / 1000}s)` : ' (hard)'}`;
}

/** thresholdsMet: each threshold whose quantity is above what is available (OpLessThan). */
export function thresholdsMet(thresholds: readonly Threshold[], available: number | undefined): Threshold[] {
  if (available === undefined) return [];
  return thresholds.filter((t) => t.value.bytes > available);
}

/** thresholdsFirstObservedAt: when each threshold met now was first met (now for a new one). */
export function thresholdsFirstObservedAt(
  thresholds: readonly Threshold[],
  last: ReadonlyMap<Threshold, number>,
  now: number,
): Map<Threshold, number> {
  return new Map(thresholds.map((t) => [t, last.get(t) ?? now]));
}

/** thresholdsMetGracePeriod: the thresholds met for at least their grace period. */
export function thresholdsMetGracePeriod(observedAt: ReadonlyMap<Threshold, number>, now: number): Threshold[] {
  return [...observedAt].filter(([t, at]) => now - at >= t.gracePeriodMs).map(([t]) => t);
}

/**
 * nodeConditionsLastObservedAt + nodeConditionsObservedSince: a condition stays while it was last
 * observed less than the pressure transition period ago, so it does not flap.
 */
export function nodeConditionsObservedSince(
  observedAt: ReadonlyMap<string, number>,
  periodMs: number,
  now: number,
): string[] {
  return [...observedAt].filter(([, at]) => now - at < periodMs).map(([c]) => c);
}

/**
 * byEvictionPriority sorts memory signals first; upstream's comparator leaves two memory thresholds
 * (a hard and a soft one met together) in map order, here the hard one comes first: its zero grace
 * is what the eviction then uses.
 */
export function byEvictionPriority(a: Threshold, b: Threshold): number {
  return a.gracePeriodMs - b.gracePeriodMs;
}

/** What the summary API reports of one pod: the working set of each container it runs. */
export interface PodStats {
  containers: { name: string; workingSetBytes: number }[];
}

export type StatsFunc = (pod: Pod) => PodStats | undefined;

/** memoryUsage of a pod: its containers' working sets. */
function memoryUsage(stats: PodStats): number {
  let sum = 0;
  for (const c of stats.containers) sum += c.workingSetBytes;
  return sum;
}

/** The request of one container for memory, 0 when it sets none. */
function containerRequest(c: NonNullable<Pod['spec']>['containers'][number]): Quantity | undefined {
  const text = c.resources?.requests?.[RESOURCE_MEMORY];
  return text === undefined ? undefined : parseQuantity(String(text));
}

/**
 * v1resource.GetResourceRequestQuantity for memory: the regular containers' requests added up, or
 * an init container's if that is larger (init containers run one at a time); pod overhead is not
 * modelled.
 */
export function podMemoryRequest(pod: Pod): number {
  let sum = 0;
  for (const c of pod.spec?.containers ?? []) sum += containerRequest(c)?.bytes ?? 0;
  for (const c of pod.spec?.initContainers ?? []) sum = Math.max(sum, containerRequest(c)?.bytes ?? 0);
  return sum;
}

type Cmp = (a: Pod, b: Pod) => number;

/** cmpBool: true first. */
function cmpBool(a: boolean, b: boolean): number {
  return a === b ? 0 : a ? -1 : 1;
}

/** exceedMemoryRequests: pods without stats first, then pods using more than they request. */
function exceedMemoryRequests(stats: StatsFunc): Cmp {
  return (a, b) => {
    const sa = stats(a);
    const sb = stats(b);
    if (!sa || !sb) return cmpBool(!sa, !sb);
    return cmpBool(memoryUsage(sa) > podMemoryRequest(a), memoryUsage(sb) > podMemoryRequest(b));
  };
}

/** priority: lower spec.priority first. */
const priority: Cmp = (a, b) => podPriority(a) - podPriority(b);

/** memory: the larger usage above the request first. */
function memory(stats: StatsFunc): Cmp {
  return (a, b) => {
    const sa = stats(a);
    const sb = stats(b);
    if (!sa || !sb) return cmpBool(!sa, !sb);
    return memoryUsage(sb) - podMemoryRequest(b) - (memoryUsage(sa) - podMemoryRequest(a));
  };
}

/**
 * rankMemoryPressure (K73): whether the pod uses more memory than it requests, then its priority,
 * then its usage above its request. Upstream's sort.Sort is not stable; here pods that tie on every
 * key keep the kubelet's active-pods order.
 */
export function rankMemoryPressure(pods: readonly Pod[], stats: StatsFunc): Pod[] {
  const keys = [exceedMemoryRequests(stats), priority, memory(stats)];
  return [...pods].sort((a, b) => {
    for (const k of keys) {
      const r = k(a, b);
      if (r !== 0) return r;
    }
    return 0;
  });
}

/** helpers.go message formats (trailing spaces included). */
const NODE_LOW_MESSAGE = (resource: string) => `The node was low on resource: ${resource}. `;
const THRESHOLD_MET_MESSAGE = (quantity: string, available: string) =>
  `Threshold quantity: ${quantity}, available: ${available}. `;
const CONTAINER_MESSAGE = (name: string, usage: string, request: string, resource: string) =>
  `Container ${name} was using ${usage}, request is ${request}, has larger consumption of ${resource}. `;

/** The Event annotations evictionMessage returns (OffendingContainersKey, OffendingContainersUsageKey, StarvedResourceKey). */
export type EvictionAnnotations = Record<
  'offending_containers' | 'offending_containers_usage' | 'starved_resource',
  string
>;

/**
 * evictionMessage (K72): "The node was low on resource: memory. ", the threshold that was met and
 * what was available, then each container (regular, then init) using more than it requests. The
 * quantities print as Quantity.String does: the request as written, usage and available as binary
 * byte counts.
 */
export function evictionMessage(
  pod: Pod,
  stats: StatsFunc,
  thresholds: readonly Threshold[],
  available: number | undefined,
): { message: string; annotations: EvictionAnnotations | undefined } {
  let message = NODE_LOW_MESSAGE(RESOURCE_MEMORY);
  const met = thresholds[0];
  if (met && available !== undefined)
    message += THRESHOLD_MET_MESSAGE(formatQuantity(met.value.bytes, met.value.format), formatQuantity(available));
  const podStats = stats(pod);
  if (!podStats) return { message, annotations: undefined };
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  const offending: string[] = [];
  const usages: string[] = [];
  for (const cs of podStats.containers) {
    const c = containers.find((x) => x.name === cs.name);
    if (!c) continue;
    const request = containerRequest(c);
    if (cs.workingSetBytes <= (request?.bytes ?? 0)) continue;
    const usage = formatQuantity(cs.workingSetBytes);
    message += CONTAINER_MESSAGE(
      c.name,
      usage,
      request ? formatQuantity(request.bytes, request.format) : '0',
      RESOURCE_MEMORY,
    );
    offending.push(c.name);
    usages.push(usage);
  }
  return {
    message,
    annotations: {
      offending_containers: offending.join(','),
      offending_containers_usage: usages.join(','),
      starved_resource: RESOURCE_MEMORY,
    },
  };
}
