import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { FieldError } from './errors';
import type { DeleteOptions, ObjectMeta } from './types';
import { validateDeleteOptions, validateFinalizers, validateObjectMetaUpdate } from './validation';

function fields(errs: FieldError[]): string[] {
  return errs.map((e) => `${e.field} ${e.type}`);
}

function deleteOptionErrors(options: DeleteOptions): string[] {
  return fields(validateDeleteOptions(options));
}

/** Stored metadata of a pod, optionally already being deleted. */
function stored(extra: Partial<ObjectMeta> = {}): ObjectMeta {
  return { name: 'web', namespace: 'default', uid: 'u1', creationTimestamp: '2025-01-01T00:00:00Z', ...extra };
}

const DELETING = { deletionTimestamp: '2025-01-01T00:00:30Z', deletionGracePeriodSeconds: 30 };

describe('ValidateDeleteOptions', () => {
  it('R2 orphanDependents together with propagationPolicy is invalid', () => {
    expect(deleteOptionErrors({ orphanDependents: false, propagationPolicy: 'Background' })).to.deep.equal([
      'propagationPolicy Invalid',
    ]);
  });

  it('R2 propagationPolicy must be exactly Foreground, Background or Orphan', () => {
    for (const p of ['Foreground', 'Background', 'Orphan'])
      expect(deleteOptionErrors({ propagationPolicy: p }), p).to.deep.equal([]);
    for (const p of ['foreground', 'Cascade', ''])
      expect(deleteOptionErrors({ propagationPolicy: p }), p).to.deep.equal(['propagationPolicy Unsupported value']);
  });

  it('R2 every dryRun entry must be "All"', () => {
    expect(deleteOptionErrors({ dryRun: ['All'] })).to.deep.equal([]);
    expect(deleteOptionErrors({ dryRun: ['All', 'Server'] })).to.deep.equal(['dryRun Unsupported value']);
  });

  it('R2 gracePeriodSeconds is never validated: negative, zero and huge values pass', () => {
    for (const g of [-100, -1, 0, 1, 2 ** 40])
      expect(deleteOptionErrors({ gracePeriodSeconds: g }), String(g)).to.deep.equal([]);
  });

  it('R2 empty options are valid', () => {
    expect(deleteOptionErrors({})).to.deep.equal([]);
  });
});

describe('ValidateFinalizers / ValidateObjectMetaAccessorUpdate', () => {
  it('R31 no finalizer may be added while the stored object is being deleted (Forbidden)', () => {
    const errs = validateObjectMetaUpdate(
      stored({ ...DELETING, finalizers: ['example.com/a'], name: 'web' }),
      stored({ ...DELETING, finalizers: [] }),
    );
    expect(fields(errs)).to.deep.equal(['metadata.finalizers Forbidden']);
    expect(errs[0].detail).to.equal(
      'no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/a"}',
    );
  });

  it('R31 removing or keeping finalizers while deleting is allowed', () => {
    const old = stored({ ...DELETING, finalizers: ['example.com/a', 'example.com/b'] });
    expect(validateObjectMetaUpdate(stored({ ...DELETING, finalizers: ['example.com/b'] }), old)).to.deep.equal([]);
    expect(
      validateObjectMetaUpdate(stored({ ...DELETING, finalizers: ['example.com/a', 'example.com/b'] }), old),
    ).to.deep.equal([]);
  });

  it('R31 adding a finalizer to an object that is not being deleted is allowed', () => {
    expect(validateObjectMetaUpdate(stored({ finalizers: ['example.com/a'] }), stored())).to.deep.equal([]);
  });

  it('R31 "orphan" and "foregroundDeletion" cannot be set together', () => {
    expect(fields(validateFinalizers(['orphan', 'foregroundDeletion']))).to.deep.equal(['metadata.finalizers Invalid']);
    expect(validateFinalizers(['orphan'])).to.deep.equal([]);
  });

  it('finalizer names must be standard or domain-qualified', () => {
    expect(validateFinalizers(['kubernetes', 'example.com/x', 'foregroundDeletion'])).to.deep.equal([]);
    expect(fields(validateFinalizers(['x']))).to.deep.equal(['metadata.finalizers[0] Invalid']);
  });

  it('R32 setting a deletionTimestamp through an update is rejected (immutable)', () => {
    const errs = validateObjectMetaUpdate(stored({ deletionTimestamp: '2025-01-01T00:00:05Z' }), stored());
    expect(fields(errs)).to.deep.equal(['metadata.deletionTimestamp Invalid']);
  });

  it('R32 a different deletionGracePeriodSeconds is rejected (immutable); the same one passes', () => {
    expect(
      fields(validateObjectMetaUpdate(stored({ ...DELETING, deletionGracePeriodSeconds: 0 }), stored(DELETING))),
    ).to.deep.equal(['metadata.deletionGracePeriodSeconds Invalid']);
    expect(validateObjectMetaUpdate(stored(DELETING), stored(DELETING))).to.deep.equal([]);
  });

  it('name, namespace and uid are immutable', () => {
    expect(fields(validateObjectMetaUpdate(stored({ uid: 'u2' }), stored()))).to.deep.equal(['metadata.uid Invalid']);
  });
});
