import type { Container, Pod } from '../../../apimachinery/types';
import type { Scheduler } from '../../../foundation/clock';
import type { Release } from '../../../foundation/release';
import type { Timeline } from '../../../foundation/timeline/timeline';
import { probeSpec, ProbeWorker, type ProbeResult, type ProbeType, type WorkerHost } from './worker';

export const MANAGER_SOURCE = 'pkg/kubelet/prober/prober_manager.go';

/** A container's probes in the order newWorker is called for them, and the field each is in. */
const PROBE_FIELDS = [
  ['startup', 'startupProbe'],
  ['readiness', 'readinessProbe'],
  ['liveness', 'livenessProbe'],
] as const;
const hasProbe = (c: Container): boolean => !!(c.startupProbe || c.readinessProbe || c.livenessProbe);

/** What a pod without (init) containers walks: shared, so that nothing is allocated for it. */
const NO_CONTAINERS: readonly Container[] = [];

/**
 * N11 — the kubelet's probe manager (prober_manager.go): AddPod starts one worker per probe of
 * every container (regular ones and sidecars) that has one, RemovePod stops them; the results
 * managers hold each container's last readiness, liveness and startup result. UpdatePodStatus
 * reads them: a container with a readiness probe is ready only while its result is Success (it
 * starts as Failure), one with a startup probe is started only once it succeeded. Pods without
 * probes have no worker and cost nothing here.
 */
export class ProberManager {
  private readonly workers = new Map<string, ProbeWorker[]>();
  private readonly results = new Map<string, Map<string, ProbeResult>>();

  constructor(
    private readonly scheduler: Scheduler,
    private readonly timeline: Timeline,
    private readonly nodeName: string,
    private readonly host: Omit<WorkerHost, 'setResult'> & {
      changed(uid: string, container: string, type: ProbeType, result: ProbeResult): void;
    },
  ) {}

  addPod(pod: Pod): void {
    const uid = pod.metadata.uid!;
    if (this.workers.has(uid)) return;
    // Walked in place, without building lists: this runs for every pod, and most have no probe.
    let list: ProbeWorker[] | undefined;
    for (const c of pod.spec?.initContainers ?? NO_CONTAINERS)
      if (c.restartPolicy === 'Always' && hasProbe(c)) this.addWorkers((list ??= []), pod, c);
    for (const c of pod.spec?.containers ?? NO_CONTAINERS) if (hasProbe(c)) this.addWorkers((list ??= []), pod, c);
    if (list === undefined || list.length === 0) return;
    this.workers.set(uid, list);
    for (const w of list) w.start();
  }

  /** The container's workers (startup, readiness, liveness: the order newWorker is called in) into `list`. */
  private addWorkers(list: ProbeWorker[], pod: Pod, c: Container): void {
    const uid = pod.metadata.uid!;
    for (const [type, field] of PROBE_FIELDS) {
      const probe = c[field];
      if (!probe) continue;
      // The results' initial values (newWorker): readiness Failure, liveness and startup Success.
      this.resultsOf(uid).set(`${type} ${c.name}`, type === 'readiness' ? 'Failure' : 'Success');
      list.push(
        new ProbeWorker(
          this.scheduler,
          this.timeline,
          { ...this.host, setResult: (u, name, t, r) => this.set(u, name, t, r) },
          uid,
          `pods/${pod.metadata.name}`,
          c.name,
          type,
          probeSpec(probe),
          this.nodeName,
          pod.metadata.deletionTimestamp !== undefined,
        ),
      );
    }
  }

  /**
   * N13 — prober_manager.go StopLivenessAndStartup, at the start of SyncTerminatingPod, so no probe
   * restarts what is being killed (readiness goes on). It walks `pod.Spec.Containers` only: the
   * liveness and startup probes of sidecars (restartable init containers) go on probing through
   * the termination until RemovePod, in every modelled release; kubernetes#141766 (first in
   * v1.38, the StopSidecarLivenessAndStartup change) stops them too.
   */
  stopLivenessAndStartup(pod: Pod, release: Release): void {
    const workers = this.workers.get(pod.metadata.uid!);
    if (!workers) return;
    const sidecarsToo = release.has('StopSidecarLivenessAndStartup');
    const regular = new Set((pod.spec?.containers ?? NO_CONTAINERS).map((c) => c.name));
    for (const w of workers) if (w.type !== 'readiness' && (sidecarsToo || regular.has(w.container))) w.stop();
  }

  removePod(uid: string): void {
    for (const w of this.workers.get(uid) ?? []) w.stop();
    this.workers.delete(uid);
    this.results.delete(uid);
  }

  /** The readiness of the pod's probed containers (container name → ready), undefined for a pod without readiness or startup probes. */
  readiness(uid: string): ReadonlyMap<string, boolean> | undefined {
    const results = this.results.get(uid);
    if (!results) return undefined;
    const out = new Map<string, boolean>();
    for (const [key, r] of results) {
      const [type, name] = key.split(' ');
      if (type === 'readiness') out.set(name, r === 'Success');
    }
    return out;
  }

  /** The last result of one probe (undefined: the container has no such probe). */
  result(uid: string, container: string, type: ProbeType): ProbeResult | undefined {
    return this.results.get(uid)?.get(`${type} ${container}`);
  }

  private resultsOf(uid: string): Map<string, ProbeResult> {
    let r = this.results.get(uid);
    if (!r) this.results.set(uid, (r = new Map()));
    return r;
  }

  private set(uid: string, container: string, type: ProbeType, result: ProbeResult): void {
    const results = this.results.get(uid);
    if (!results) return;
    const key = `${type} ${container}`;
    if (results.get(key) === result) return;
    results.set(key, result);
    this.host.changed(uid, container, type, result);
  }
}
