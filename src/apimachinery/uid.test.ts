import { describe, it } from 'node:test';
import { expect } from 'chai';
import { deterministicUid } from './uid';

describe('deterministicUid', () => {
  it('is a version-4-shaped UUID made from the identity and the creation counter, the same every run', () => {
    // The uid that runs have always given the first pod "web" in "default".
    expect(deterministicUid('pods', 'default', 'web', 1)).to.equal('7cf4277e-28da-4ac9-8b2b-2edbd42962e2');
    expect(deterministicUid('pods', 'default', 'web', 2)).to.match(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(deterministicUid('pods', 'default', 'web', 2)).to.not.equal(deterministicUid('pods', 'default', 'web', 1));
    expect(deterministicUid('nodes', undefined, 'n1', 1)).to.not.equal(deterministicUid('nodes', '', 'n1', 2));
  });
});
