import { describe, it } from 'node:test';
import { expect } from 'chai';
import { parse } from 'yaml';
import { toYaml, yamlDocuments } from './yaml-output';

describe('YAML output (as sigs.k8s.io/yaml writes it)', () => {
  it('writes a shared object out at each place, never as an anchor and an alias', () => {
    const defaults = Object.freeze({ type: 'RuntimeDefault' });
    const pod = {
      metadata: { name: 'web' },
      spec: {
        containers: [
          { name: 'a', securityContext: { seccompProfile: defaults } },
          { name: 'b', securityContext: { seccompProfile: defaults } },
        ],
      },
    };
    const text = toYaml(pod);
    expect(text).to.not.match(/[&*]a\d/);
    expect(text.match(/type: RuntimeDefault/g)).to.have.length(2);
    expect(parse(text)).to.deep.equal(JSON.parse(JSON.stringify(pod)));
  });

  it('joins objects into one stream, or says there are none', () => {
    expect(yamlDocuments([{ a: 1 }, { b: 2 }], 'no pods left in the API')).to.equal('a: 1\n---\nb: 2\n');
    expect(yamlDocuments([], 'no pods left in the API')).to.equal('# no pods left in the API\n');
  });
});
