import { describe, it } from 'node:test';
import { expect } from 'chai';
import { USER } from '../cluster';
import { openWatch, podManifest, startServer, tick } from '../../frontends/server/testing';

describe('a served client perturbed by its User-Agent (issue 33)', () => {
  it('a watch from "my-operator/1.0" gets each pod change 2s late; kubectl\'s watch of the same pods gets it at once', async () => {
    const server = await startServer(
      [],
      {},
      {
        perturbations: [
          { type: 'late', target: { kind: 'client', userAgent: 'my-operator' }, resource: 'pods', delayMs: 2000 },
        ],
      },
    );
    try {
      const operator = await openWatch(server.base, '/api/v1/namespaces/default/pods?watch=1', {
        'User-Agent': 'my-operator/1.0 (linux/amd64)',
      });
      const kubectl = await openWatch(server.base, '/api/v1/namespaces/default/pods?watch=1');
      server.cluster.apiserver.create(USER, 'pods', 'default', podManifest('web'));
      server.cluster.flush();
      await kubectl.until(1);
      await tick(50);
      expect(operator.events).to.have.length(0);
      server.cluster.advance(1999);
      await tick(50);
      expect(operator.events).to.have.length(0);
      server.cluster.advance(1);
      await operator.until(1);
      expect(`${operator.events[0].type} ${operator.events[0].object.metadata.name}`).to.equal('ADDED web');
      operator.close();
      kubectl.close();
    } finally {
      await server.close();
    }
  });
});
