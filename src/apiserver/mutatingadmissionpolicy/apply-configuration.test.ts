import { describe, it } from 'node:test';
import { expect } from 'chai';
import { FieldManager } from '../managedfields/manager';
import { schemaDefinitions } from '../schemas';
import { ApplyConfigurationError, applyConfiguration } from './apply-configuration';

const converter = new FieldManager(schemaDefinitions());

const pod = () => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    containers: [
      { name: 'app', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }] },
      { name: 'log', image: 'busybox' },
    ],
    tolerations: [{ key: 'a', operator: 'Exists' }],
  },
});

function refused(configuration: Record<string, unknown>): string {
  try {
    applyConfiguration(converter, pod(), configuration);
  } catch (e) {
    if (e instanceof ApplyConfigurationError) return e.message;
    throw e;
  }
  return expect.fail('the configuration applied');
}

describe('R317 ApplyConfiguration merged as server-side apply merges (patch/smd.go ApplyStructuredMergeDiff)', () => {
  it('maps merge by key; a list-map merges items by their keys, in place, and adds new ones', () => {
    const out = applyConfiguration(converter, pod(), {
      metadata: { labels: { team: 'a' } },
      spec: {
        containers: [
          { name: 'log', env: [{ name: 'LEVEL', value: 'debug' }] },
          { name: 'proxy', image: 'envoy' },
        ],
      },
    }) as ReturnType<typeof pod>;
    expect(out.metadata.labels).to.deep.equal({ app: 'web', team: 'a' });
    expect(out.spec.containers.map((c) => c.name)).to.deep.equal(['app', 'log', 'proxy']);
    expect(out.spec.containers[1]).to.deep.equal({
      name: 'log',
      image: 'busybox',
      env: [{ name: 'LEVEL', value: 'debug' }],
    });
  });

  it('a list-map with two keys (container ports: containerPort and protocol, defaulted) merges by both', () => {
    const out = applyConfiguration(converter, pod(), {
      spec: { containers: [{ name: 'app', ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }] }] },
    }) as ReturnType<typeof pod>;
    expect(out.spec.containers[0].ports).to.deep.equal([
      { containerPort: 80, protocol: 'TCP', name: 'http' },
      { containerPort: 443 },
    ]);
  });

  it('an atomic list (tolerations, a container`s command) is refused, with every path (in the configuration order; upstream walks Go maps, in no fixed order)', () => {
    expect(
      refused({
        spec: { tolerations: [{ key: 'b' }], containers: [{ name: 'app', command: ['sh'] }] },
      }),
    ).to.equal(
      'error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.tolerations, .spec.containers[0].command',
    );
  });

  it('a field the schema does not declare, and two items of one key, are refused', () => {
    expect(refused({ spec: { colour: 'red' } })).to.equal(
      'error applying patch: failed to convert patch object to typed object: .spec.colour: field not declared in schema',
    );
    expect(refused({ spec: { containers: [{ name: 'x' }, { name: 'x' }] } })).to.contain(
      'duplicate entries for key [name="x"]',
    );
  });
});
