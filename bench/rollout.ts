import { Cluster, USER } from '../src/cluster/cluster';
import type { Recording } from '../src/foundation/timeline/timeline';
import type { MassDeletionResult } from './mass-deletion';
import { finishRun, workloadMain } from './workload-run';

/**
 * A rolling update of a Deployment of N replicas over `nodes` nodes (25 % surge and
 * unavailability, the default; every container exits 1 s after SIGTERM): the Deployment is
 * created and its pods run for a virtual minute, then its template changes, and the run lasts
 * until the new ReplicaSet has N available pods and every old pod is gone. Every pod goes
 * through the scheduler, the ReplicaSet and Deployment controllers and a kubelet: what a
 * workload costs per pod, beside bench/mass-deletion.ts's pods that a step binds itself.
 */
export function rollout(
  replicas: number,
  nodes = 20,
  record: Recording = 'full',
  progress: (line: string) => void = () => {},
): MassDeletionResult {
  const setupStart = process.hrtime.bigint();
  const c = new Cluster({ record });
  for (let n = 0; n < nodes; n++) c.addNode(`node-${n}`);
  const exitsAfterSigterm = { sigterm: { kind: 'exits', afterMs: 1000 }, preStopMs: 0 } as const;
  // The behaviour is the runtime's for every container of this run: pods are created by controllers under generated names.
  c.apiserver.watch('pods', undefined, {}, (e) => {
    const pod = e.object;
    if (e.type !== 'DELETED' && pod.spec?.nodeName)
      c.node(pod.spec.nodeName).containerBehaviours.set(`${pod.metadata.uid} app`, exitsAfterSigterm);
  });
  const template = (version: string) => ({
    metadata: { labels: { app: 'web' }, annotations: { version } },
    spec: { containers: [{ name: 'app' }] },
  });
  const r = c.apiserver.create(USER, 'deployments', 'default', {
    metadata: { name: 'web' },
    spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: template('1') },
  });
  if (!r.ok) throw new Error(r.status.message);
  const status = () => {
    const d = c.apiserver.get('deployments', 'default', 'web');
    return d.ok ? d.object.status : undefined;
  };
  const podCount = () => {
    const l = c.apiserver.list('pods', 'default');
    return l.ok ? l.object.items.length : -1;
  };
  const complete = () => {
    const s = status();
    return (
      s?.updatedReplicas === replicas &&
      s.availableReplicas === replicas &&
      s.replicas === replicas &&
      podCount() === replicas
    );
  };
  if (!c.runUntil(complete, c.clock.now() + 10 * 60_000))
    throw new Error(`the first rollout did not finish within 10 virtual minutes: ${JSON.stringify(status())}`);
  c.advance(60_000);
  const t0 = c.clock.now();
  const setupSeconds = Number(process.hrtime.bigint() - setupStart) / 1e9;
  progress(`${replicas} replicas on ${nodes} nodes running (${setupSeconds.toFixed(1)} s); rolling out a new template`);
  const p = c.apiserver.patch(USER, 'deployments', 'default', 'web', 'merge', { spec: { template: template('2') } });
  if (!p.ok) throw new Error(p.status.message);
  let updated = false;
  const done = () => (updated ||= (status()?.observedGeneration ?? 0) >= 2) && complete();
  if (!c.runUntil(done, t0 + 30 * 60_000))
    throw new Error(`the rollout did not finish within 30 virtual minutes: ${JSON.stringify(status())}`);
  const result = finishRun(c, t0, setupStart, setupSeconds, ['deployments', 'replicasets', 'pods']);
  progress(`rollout done after ${(c.clock.now() - t0) / 1000} virtual s (${result.seconds.toFixed(1)} s in all)`);
  return result;
}

if (require.main === module) workloadMain('rollout', rollout);
