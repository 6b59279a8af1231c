import { Cluster, USER } from '../src/cluster/cluster';
import { runKubectl } from '../src/frontends/kubectl/kubectl';

/**
 * The seed scenario's cluster time against wall time: a pod whose container ignores SIGTERM is
 * deleted with kubectl and waited for (30 s grace, SIGKILL, final DELETE ≈ 31 virtual seconds).
 */
export function seedScenario(): { virtualMs: number } {
  const c = new Cluster();
  const node = c.addNode('node-1');
  const created = c.apiserver.create(USER, 'pods', 'default', {
    metadata: { name: 'web' },
    spec: { nodeName: 'node-1', containers: [{ name: 'app' }] },
  });
  if (!created.ok) throw new Error(created.status.message);
  node.containerBehaviours.set(`${created.object.metadata.uid} app`, { sigterm: { kind: 'ignores' }, preStopMs: 0 });
  c.flush();
  c.advance(60_000);
  const t0 = c.clock.now();
  const r = runKubectl(c, 'kubectl delete pod web');
  if (r.exitCode !== 0) throw new Error(`seed scenario failed: ${r.stderr}`);
  return { virtualMs: c.clock.now() - t0 };
}
