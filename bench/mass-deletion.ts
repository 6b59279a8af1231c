import { Cluster, USER } from '../src/cluster';

/**
 * Mass deletion: N pods spread over `nodes` nodes, each deleted gracefully (30 s grace; the
 * container exits 1 s after SIGTERM), simulated until every pod is gone.
 */
export function massDeletion(pods: number, nodes = 100): { events: number; virtualMs: number; setupSeconds: number } {
  const setupStart = process.hrtime.bigint();
  const c = new Cluster();
  for (let n = 0; n < nodes; n++) {
    const node = c.addNode(`node-${n}`);
    for (let i = n; i < pods; i += nodes) node.containerBehaviours.set(`pods/pod-${i} app`, { sigterm: { kind: 'exits', afterMs: 1000 }, preStopMs: 0 });
  }
  for (let i = 0; i < pods; i++) {
    c.apiserver.create(USER, 'pods', 'default', { metadata: { name: `pod-${i}` }, spec: { nodeName: `node-${i % nodes}`, containers: [{ name: 'app' }] } });
  }
  c.flush();
  c.advance(60_000);
  const t0 = c.clock.now();
  const setupSeconds = Number(process.hrtime.bigint() - setupStart) / 1e9;
  for (let i = 0; i < pods; i++) c.apiserver.delete(USER, 'pods', 'default', `pod-${i}`, {});
  let left = pods;
  c.apiserver.etcd.subscribe((e) => {
    if (e.type === 'DELETE' && e.key.startsWith('/registry/pods/')) left -= 1;
  });
  const gone = () => left === 0;
  if (!c.runUntil(gone, t0 + 10 * 60_000)) throw new Error('mass deletion did not finish within 10 virtual minutes');
  return { events: c.timeline.all().length, virtualMs: c.clock.now() - t0, setupSeconds };
}

if (require.main === module) {
  const n = Number(process.argv[2] ?? 1000);
  const nodes = Number(process.argv[3] ?? 100);
  const start = process.hrtime.bigint();
  const r = massDeletion(n, nodes);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  // seconds: the whole run (creating the pods and letting them run, then the deletion);
  // deleteSeconds: from the first DELETE until every pod is gone.
  console.log(JSON.stringify({ pods: n, nodes, seconds, deleteSeconds: seconds - r.setupSeconds, events: r.events, virtualSeconds: r.virtualMs / 1000, peakRssMB: process.resourceUsage().maxRSS / 1024 }));
}
