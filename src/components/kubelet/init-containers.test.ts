import { describe, it } from 'node:test';
import { expect } from 'chai';
import { EPOCH_MS } from '../../foundation/clock';
import type { Pod } from '../../apimachinery/types';
import type { RuntimeContainer, Sandbox } from './runtime';
import { computeInitContainerActions } from './init-containers';

/** A pod with init containers (a name ending in `+` is a sidecar: restartPolicy Always) and regular container `app`. */
function pod(inits: string[], restartPolicy = 'Always'): Pod {
  return {
    metadata: { name: 'web', uid: 'u1' },
    spec: {
      restartPolicy,
      initContainers: inits.map((n) =>
        n.endsWith('+') ? { name: n.slice(0, -1), restartPolicy: 'Always' } : { name: n },
      ),
      containers: [{ name: 'app' }],
    },
  };
}

/** A sandbox whose containers are running (`true`) or exited with a code. */
function sandbox(containers: Record<string, true | number>): Sandbox {
  const map = new Map<string, RuntimeContainer>();
  for (const [name, s] of Object.entries(containers)) {
    map.set(
      name,
      s === true
        ? { name, id: name, state: 'running', startedAt: EPOCH_MS }
        : { name, id: name, state: 'exited', startedAt: EPOCH_MS, finishedAt: EPOCH_MS, exitCode: s },
    );
  }
  return { uid: 'u1', podRef: 'pods/web', state: 'ready', containers: map, ips: ['10.244.0.2'] };
}

const actions = (p: Pod, sb: Sandbox) => computeInitContainerActions(p, sb);

describe('kuberuntime_container.go computeInitContainerActions (K56)', () => {
  it('K56 no init containers: initialized at once', () => {
    expect(actions(pod([]), sandbox({}))).to.deep.equal({ initialized: true, toStart: [] });
  });

  it('K56 regular init containers run one at a time, in spec order: none ran → the first; one running → wait; one exited 0 → the next; the last exited 0 → initialized', () => {
    const p = pod(['fetch', 'migrate']);
    expect(actions(p, sandbox({}))).to.deep.equal({ initialized: false, toStart: ['fetch'] });
    expect(actions(p, sandbox({ fetch: true }))).to.deep.equal({ initialized: false, toStart: [] });
    expect(actions(p, sandbox({ fetch: 0 }))).to.deep.equal({ initialized: false, toStart: ['migrate'] });
    expect(actions(p, sandbox({ fetch: 0, migrate: true }))).to.deep.equal({ initialized: false, toStart: [] });
    expect(actions(p, sandbox({ fetch: 0, migrate: 0 }))).to.deep.equal({ initialized: true, toStart: [] });
  });

  it('K56 a failed init container is started again unless restartPolicy is Never (then SyncPod finds the pod Failed first; no starts)', () => {
    expect(actions(pod(['fetch', 'migrate']), sandbox({ fetch: 0, migrate: 1 }))).to.deep.equal({
      initialized: false,
      toStart: ['migrate'],
    });
    expect(actions(pod(['fetch'], 'OnFailure'), sandbox({ fetch: 137 }))).to.deep.equal({
      initialized: false,
      toStart: ['fetch'],
    });
    expect(actions(pod(['fetch'], 'Never'), sandbox({ fetch: 1 }))).to.deep.equal({ initialized: false, toStart: [] });
  });

  it('K56 once a regular container runs, regular init containers are not looked at again (their runs may be gone from the runtime)', () => {
    expect(actions(pod(['fetch']), sandbox({ app: true }))).to.deep.equal({ initialized: true, toStart: [] });
    expect(actions(pod(['fetch']), sandbox({ fetch: 1, app: true }))).to.deep.equal({ initialized: true, toStart: [] });
  });

  it('K56 a running sidecar counts as initialized and lets the next init container start; an exited sidecar is started again', () => {
    const p = pod(['log+', 'fetch']);
    expect(actions(p, sandbox({}))).to.deep.equal({ initialized: false, toStart: ['log'] });
    expect(actions(p, sandbox({ log: true }))).to.deep.equal({ initialized: false, toStart: ['fetch'] });
    expect(actions(p, sandbox({ log: true, fetch: 0 }))).to.deep.equal({ initialized: true, toStart: [] });
    expect(actions(p, sandbox({ log: 1, fetch: 0, app: true }))).to.deep.equal({ initialized: true, toStart: ['log'] });
    expect(actions(pod(['fetch', 'log+']), sandbox({ fetch: 0, log: true }))).to.deep.equal({
      initialized: true,
      toStart: [],
    });
  });
});
