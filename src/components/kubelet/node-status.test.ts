import { describe, it } from 'node:test';
import { expect } from 'chai';
import { ApiServer } from '../../apiserver/apiserver';
import { ApiClient } from '../../client/client';
import type { Lease } from '../../apimachinery/types';
import { Clock } from '../../foundation/clock';
import { USER } from '../../cluster/cluster';
import { Timeline } from '../../foundation/timeline/timeline';
import { NODE_LEASE_NAMESPACE } from '../../helpers/well-known';
import { LEASE_RENEW_INTERVAL_MS, NodeStatusReporter } from './node-status';

/** A node's reporter on its own apiserver, with every GET of its Lease counted. */
function reporter(): { clock: Clock; api: ApiServer; leaseGets: () => number; lease: () => Lease } {
  const clock = new Clock();
  const api = new ApiServer(clock, new Timeline(clock));
  let gets = 0;
  const get = api.get.bind(api);
  api.get = ((resource, namespace, name) => {
    if (resource === 'leases') gets += 1;
    return get(resource, namespace, name);
  }) as typeof api.get;
  new NodeStatusReporter(clock, new ApiClient(api, { name: 'kubelet/n1', component: 'kubelet' }), 'n1').start();
  const lease = () => {
    const r = get('leases', NODE_LEASE_NAMESPACE, 'n1');
    if (!r.ok) expect.fail(r.status.message);
    return r.object;
  };
  return { clock, api, leaseGets: () => gets, lease };
}

describe('NodeStatusReporter (the node lease controller)', () => {
  it('renews the Lease from the copy it wrote last: only the first renewal GETs it (lease controller.go sync, latestLease)', () => {
    const { clock, leaseGets, lease } = reporter();
    clock.tick(6 * LEASE_RENEW_INTERVAL_MS);
    expect(leaseGets(), 'the GET that found no Lease and created it').to.equal(1);
    expect(lease().spec?.renewTime).to.equal(new Date(clock.now()).toISOString().replace('Z', '000Z'));
  });

  it('falls back to a GET when its copy is stale (someone else wrote the Lease), and renews from what it read', () => {
    const { clock, api, leaseGets, lease } = reporter();
    clock.tick(LEASE_RENEW_INTERVAL_MS);
    const other = lease();
    expect(
      api.update(USER, 'leases', NODE_LEASE_NAMESPACE, {
        ...other,
        metadata: { ...other.metadata, labels: { edited: 'yes' } },
      }).ok,
    ).to.equal(true);
    clock.tick(LEASE_RENEW_INTERVAL_MS);
    expect(leaseGets(), 'the first renewal, then the fallback after the Conflict').to.equal(2);
    expect(lease().metadata.labels).to.deep.equal({ edited: 'yes' });
    expect(lease().spec?.renewTime).to.equal(new Date(clock.now()).toISOString().replace('Z', '000Z'));
    clock.tick(LEASE_RENEW_INTERVAL_MS);
    expect(leaseGets()).to.equal(2);
  });

  it('R344: the Lease has no metadata.generation, created or renewed (lease/strategy.go sets none)', () => {
    const { clock, lease } = reporter();
    expect(lease().metadata.generation).to.equal(undefined);
    clock.tick(3 * LEASE_RENEW_INTERVAL_MS);
    expect(lease().metadata.generation).to.equal(undefined);
  });
});
