import { createHash } from 'node:crypto';
import { Cluster, USER } from '../src/cluster';
import type { Recording } from '../src/timeline/timeline';
import { parseMassDeletionArgs, USAGE, type MassDeletionResult } from './mass-deletion';

/**
 * A rolling update of a Deployment of N replicas over `nodes` nodes (25 % surge and
 * unavailability, the default; every container exits 1 s after SIGTERM): the Deployment is
 * created and its pods run for a virtual minute, then its template changes, and the run lasts
 * until the new ReplicaSet has N available pods and every old pod is gone. Every pod goes
 * through the scheduler, the ReplicaSet and Deployment controllers and a kubelet: what a
 * workload costs per pod, beside bench/mass-deletion.ts's pods that a step binds itself.
 */
export function rollout(replicas: number, nodes = 20, record: Recording = 'full', progress: (line: string) => void = () => {}): MassDeletionResult {
  const setupStart = process.hrtime.bigint();
  const c = new Cluster({ record });
  for (let n = 0; n < nodes; n++) c.addNode(`node-${n}`);
  const exitsAfterSigterm = { sigterm: { kind: 'exits', afterMs: 1000 }, preStopMs: 0 } as const;
  // The behaviour is the runtime's for every container of this run: pods are created by controllers under generated names.
  c.apiserver.watch('pods', undefined, {}, (e) => {
    const pod = e.object;
    if (e.type !== 'DELETED' && pod.spec?.nodeName) c.node(pod.spec.nodeName).containerBehaviours.set(`${pod.metadata.uid} app`, exitsAfterSigterm);
  });
  const template = (version: string) => ({ metadata: { labels: { app: 'web' }, annotations: { version } }, spec: { containers: [{ name: 'app' }] } });
  const r = c.apiserver.create(USER, 'deployments', 'default', { metadata: { name: 'web' }, spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: template('1') } });
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
    return s?.updatedReplicas === replicas && s.availableReplicas === replicas && s.replicas === replicas && podCount() === replicas;
  };
  if (!c.runUntil(complete, c.clock.now() + 10 * 60_000)) throw new Error(`the first rollout did not finish within 10 virtual minutes: ${JSON.stringify(status())}`);
  c.advance(60_000);
  const t0 = c.clock.now();
  const setupSeconds = Number(process.hrtime.bigint() - setupStart) / 1e9;
  progress(`${replicas} replicas on ${nodes} nodes running (${setupSeconds.toFixed(1)} s); rolling out a new template`);
  const p = c.apiserver.patch(USER, 'deployments', 'default', 'web', 'merge', { spec: { template: template('2') } });
  if (!p.ok) throw new Error(p.status.message);
  let updated = false;
  const done = () => (updated ||= (status()?.observedGeneration ?? 0) >= 2) && complete();
  if (!c.runUntil(done, t0 + 30 * 60_000)) throw new Error(`the rollout did not finish within 30 virtual minutes: ${JSON.stringify(status())}`);
  const seconds = Number(process.hrtime.bigint() - setupStart) / 1e9;
  const { user, system } = process.cpuUsage();
  const peakRssMB = process.resourceUsage().maxRSS / 1024;
  progress(`rollout done after ${(c.clock.now() - t0) / 1000} virtual s (${seconds.toFixed(1)} s in all)`);
  const state = createHash('sha256');
  for (const res of ['deployments', 'replicasets', 'pods'] as const) state.update(JSON.stringify(c.apiserver.list(res, undefined)));
  return { events: c.timeline.recorded, virtualMs: c.clock.now() - t0, setupSeconds, seconds, cpuSeconds: (user + system) / 1e6, peakRssMB, finalState: state.digest('hex').slice(0, 16), cluster: c };
}

if (require.main === module) {
  let args;
  try {
    args = parseMassDeletionArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`rollout: ${(e as Error).message}\nusage: ${USAGE.replace('mass-deletion', 'rollout')}`);
    process.exit(2);
  }
  const { pods, nodes, record } = args;
  const r = rollout(pods, nodes, record, (line) => process.stderr.write(`rollout: ${line}\n`));
  process.on('exit', () => r.cluster);
  // The same fields as bench/mass-deletion.ts; deleteSeconds is the rollout phase.
  console.log(JSON.stringify({ pods, nodes, record, seconds: r.seconds, deleteSeconds: r.seconds - r.setupSeconds, events: r.events, virtualSeconds: r.virtualMs / 1000, finalState: r.finalState, peakRssMB: r.peakRssMB, cpuSeconds: r.cpuSeconds }));
}
