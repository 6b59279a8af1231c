/** V46 — a Service's name by release (ValidateServiceName, RelaxedServiceNameValidation). */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Service } from '../apimachinery/types';
import { Cluster, USER } from '../cluster/cluster';
import { Release } from '../foundation/release';

const service = (name: string): Service => ({
  metadata: { name },
  spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
});

function create(release: Release, name: string) {
  return new Cluster({ release }).apiserver.create(USER, 'services', 'default', service(name));
}

describe('V46 Service names: a DNS-1035 label up to v1.35, a DNS-1123 label from v1.36', () => {
  it('V46 "1web" is 422 Invalid on v1.35 (and on v1.34, where the gate is alpha), created on v1.36 and on v1.34 with the gate on', () => {
    for (const minor of [33, 34, 35]) {
      const r = create(Release.of(minor), '1web');
      expect(!r.ok && `${r.code} ${r.status.message}`, `v1.${minor}`).to.equal(
        "422 Service \"1web\" is invalid: metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      );
    }
    expect(create(Release.of(36), '1web').ok).to.equal(true);
    expect(create(Release.of(34, { RelaxedServiceNameValidation: true }), '1web').ok).to.equal(true);
    expect(create(Release.of(36, { RelaxedServiceNameValidation: false }), '1web').ok).to.equal(false);
  });

  it('V46 a dot is refused on every release (a label, not a subdomain); more than 63 characters is its own error', () => {
    for (const minor of [33, 36]) {
      const dotted = create(Release.of(minor), 'web.v1');
      expect(!dotted.ok && dotted.code, `v1.${minor}`).to.equal(422);
    }
    const long = create(Release.of(36), 'a'.repeat(64));
    expect(!long.ok && long.status.message).to.include(
      'metadata.name: Invalid value: "' + 'a'.repeat(64) + '": must be no more than 63 characters',
    );
  });
});
