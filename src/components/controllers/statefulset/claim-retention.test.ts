/**
 * P21 — the retention policy as owner references (claim-retention.ts, upstream
 * pkg/controller/statefulset/stateful_set_utils.go isClaimOwnerUpToDate and
 * updateClaimOwnerRefForSetAndPod).
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { OwnerReference, PersistentVolumeClaim, Pod, StatefulSet } from '../../../apimachinery/types';
import {
  claimOwnerRefsForSetAndPod,
  hasStalePodRef,
  hasUnexpectedController,
  isClaimOwnerUpToDate,
} from './claim-retention';

const set = (whenScaled: string, whenDeleted: string, replicas = 1): StatefulSet =>
  ({
    metadata: { name: 'db', namespace: 'default', uid: 'set-uid' },
    spec: { replicas, persistentVolumeClaimRetentionPolicy: { whenScaled, whenDeleted } },
  }) as unknown as StatefulSet;
const pod = (ordinal: number, uid = `pod-${ordinal}-uid`): Pod =>
  ({ metadata: { name: `db-${ordinal}`, namespace: 'default', uid } }) as Pod;
const claim = (...ownerReferences: OwnerReference[]): PersistentVolumeClaim =>
  ({ metadata: { name: 'data-db-1', namespace: 'default', ownerReferences } }) as PersistentVolumeClaim;
const ref = (kind: 'Pod' | 'StatefulSet', name: string, uid: string, controller = true): OwnerReference => ({
  apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1',
  kind,
  name,
  uid,
  controller,
  blockOwnerDeletion: true,
});
/** The controllers the policy gives the claim of db-1, by kind. */
const owners = (s: StatefulSet, p: Pod, c = claim()) =>
  claimOwnerRefsForSetAndPod(c, s, p).map((r) => `${r.kind}/${r.name}`);

describe('P21 the claim owners of each retention policy', () => {
  it('Retain/Retain: none; whenDeleted Delete: the set, in range or not', () => {
    expect(owners(set('Retain', 'Retain'), pod(1))).to.deep.equal([]);
    expect(owners(set('Retain', 'Delete', 2), pod(1))).to.deep.equal(['StatefulSet/db']);
    expect(owners(set('Retain', 'Delete', 1), pod(1))).to.deep.equal(['StatefulSet/db']);
  });

  it('whenScaled Delete: the pod once its ordinal is out of range, never while it is in range', () => {
    expect(owners(set('Delete', 'Retain', 2), pod(1))).to.deep.equal([]);
    expect(owners(set('Delete', 'Retain', 1), pod(1))).to.deep.equal(['Pod/db-1']);
    // Delete/Delete: the set while in range, then the pod instead of the set.
    expect(owners(set('Delete', 'Delete', 2), pod(1))).to.deep.equal(['StatefulSet/db']);
    expect(owners(set('Delete', 'Delete', 1), pod(1))).to.deep.equal(['Pod/db-1']);
  });

  it('references are controller references that block the owner’s foreground deletion; others are kept', () => {
    const other = ref('StatefulSet', 'backup', 'x', false);
    const refs = claimOwnerRefsForSetAndPod(claim(other), set('Delete', 'Retain', 1), pod(1));
    expect(refs).to.deep.equal([other, ref('Pod', 'db-1', 'pod-1-uid')]);
  });

  it('isClaimOwnerUpToDate: what the policy asks for; a pod back in range must lose its reference', () => {
    const scaledDown = set('Delete', 'Retain', 1);
    const backUp = set('Delete', 'Retain', 2);
    const owned = claim(ref('Pod', 'db-1', 'pod-1-uid'));
    expect(isClaimOwnerUpToDate(claim(), scaledDown, pod(1))).to.equal(false);
    expect(isClaimOwnerUpToDate(owned, scaledDown, pod(1))).to.equal(true);
    expect(isClaimOwnerUpToDate(owned, backUp, pod(1))).to.equal(false);
    expect(owners(backUp, pod(1), owned)).to.deep.equal([]);
    // A reference that is not a controller reference is corrected.
    expect(isClaimOwnerUpToDate(claim(ref('Pod', 'db-1', 'pod-1-uid', false)), scaledDown, pod(1))).to.equal(false);
  });

  it('a reference to an earlier pod of the same name is stale: the claim is not touched, and a new pod of that name waits', () => {
    const stale = claim(ref('Pod', 'db-1', 'old-uid'));
    expect(isClaimOwnerUpToDate(stale, set('Delete', 'Retain', 2), pod(1))).to.equal(true);
    expect(hasStalePodRef(stale, pod(1, undefined))).to.equal(true);
    expect(hasStalePodRef(claim(), pod(1, undefined))).to.equal(false);
  });

  it('another controller of the claim: the policy leaves it alone (none under Retain/Retain)', () => {
    const foreign = claim(ref('StatefulSet', 'other', 'other-uid'));
    expect(hasUnexpectedController(foreign, set('Delete', 'Retain', 1), pod(1))).to.equal(true);
    expect(hasUnexpectedController(foreign, set('Retain', 'Retain', 1), pod(1))).to.equal(false);
    expect(isClaimOwnerUpToDate(foreign, set('Delete', 'Retain', 1), pod(1))).to.equal(true);
    expect(owners(set('Delete', 'Retain', 1), pod(1), foreign)).to.deep.equal(['StatefulSet/other']);
  });
});
