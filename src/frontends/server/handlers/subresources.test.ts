import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SERVED_RESOURCES } from '../../../apiserver/resources';
import { SUBRESOURCE_HANDLERS } from './subresources';

describe('subresource routes (endpoints/installer.go: one route per verb a subresource storage implements)', () => {
  it('every verb discovery lists for a subresource has the handler of its REST storage', () => {
    for (const r of SERVED_RESOURCES)
      for (const [name, sub] of Object.entries(r.subresources))
        for (const verb of sub.verbs)
          assert.ok(SUBRESOURCE_HANDLERS[sub.rest][verb], `${r.resource}/${name} ${verb} (${sub.rest})`);
  });

  it('declares the REST storages upstream assembles for pods, namespaces and the scalable kinds', () => {
    const rest = (resource: string) =>
      Object.fromEntries(
        Object.entries(SERVED_RESOURCES.find((r) => r.resource === resource)?.subresources ?? {}).map(([n, s]) => [
          n,
          s.rest,
        ]),
      );
    assert.deepEqual(rest('pods'), {
      eviction: 'EvictionREST',
      exec: 'ExecREST',
      log: 'LogREST',
      status: 'StatusREST',
    });
    assert.deepEqual(rest('namespaces'), { finalize: 'FinalizeREST', status: 'StatusREST' });
    assert.deepEqual(rest('deployments'), { scale: 'ScaleREST', status: 'StatusREST' });
  });
});
