import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { decodeProblems, definitionsForRelease } from './strict-decoding';

/** fields-by-release.json: generated from k8s.io/api types.go of each release (scripts/fields-by-release.mjs). */
const SINCE = JSON.parse(readFileSync(join(__dirname, 'fields-by-release.json'), 'utf8')) as Record<
  string,
  Record<string, number[]>
>;
const MINORS = [26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36];
const served = ([first, last]: number[], minor: number) => minor >= first && (last === undefined || minor <= last);

describe('R110 — each release serves exactly the fields its k8s.io/api declares (schemas.ts, types-by-release.json)', () => {
  it('every definition of every served kind, at every release 1.26–1.36, has the fields of that release and no other varying one', () => {
    const wrong: string[] = [];
    for (const minor of MINORS) {
      const defs = definitionsForRelease(minor);
      for (const [def, fields] of Object.entries(SINCE)) {
        const props = defs[def]?.properties;
        if (!props) continue;
        for (const [field, range] of Object.entries(fields)) {
          if (served(range, minor) && !(field in props)) wrong.push(`1.${minor} lacks ${def}.${field}`);
          if (!served(range, minor) && field in props) wrong.push(`1.${minor} serves ${def}.${field}`);
        }
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it("a field new in the release has upstream's type, list markers and description (PodStatus.nodeAllocatableResourceClaimStatuses, 1.36)", () => {
    const defs = definitionsForRelease(36);
    const list = defs['io.k8s.api.core.v1.PodStatus'].properties!.nodeAllocatableResourceClaimStatuses;
    expect(list).to.include({ type: 'array', 'x-kubernetes-list-type': 'atomic' });
    expect(list.description).to.match(/^NodeAllocatableResourceClaimStatuses contains the status/);
    expect(list.items).to.deep.equal({
      $ref: '#/definitions/io.k8s.api.core.v1.NodeAllocatableResourceClaimStatus',
    });
    const status = defs['io.k8s.api.core.v1.NodeAllocatableResourceClaimStatus'];
    expect(status.required).to.deep.equal(['resourceClaimName', 'resources']);
    expect(status.properties!.resources).to.deep.include({
      type: 'object',
      additionalProperties: { type: 'string', format: 'quantity' },
    });
  });

  const pod = (spec: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web' },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
  });
  const POD = { group: '', version: 'v1', kind: 'Pod' };
  const CSI = { group: 'storage.k8s.io', version: 'v1', kind: 'CSIDriver' };
  const driver = { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'd' } };

  it('strict decoding accepts a 1.36 field at 1.36 and refuses it as unknown at 1.34 (PodSpec.schedulingGroup)', () => {
    const value = pod({ schedulingGroup: { podGroupName: 'g' } });
    expect(decodeProblems(POD, structuredClone(value), 36)).to.deep.include({ typeError: undefined, strict: [] });
    expect(decodeProblems(POD, structuredClone(value), 35).strict).to.deep.equal([
      'unknown field "spec.schedulingGroup"',
    ]);
    expect(decodeProblems(POD, structuredClone(value), 34).strict).to.deep.equal([
      'unknown field "spec.schedulingGroup"',
    ]);
  });

  it('PodSpec.workloadRef is served by 1.35 only, and a typo inside it is refused', () => {
    const value = pod({ workloadRef: { name: 'w', podGroup: 'g' } });
    expect(decodeProblems(POD, structuredClone(value), 35)).to.deep.include({ typeError: undefined, strict: [] });
    expect(decodeProblems(POD, structuredClone(value), 36).strict).to.deep.equal(['unknown field "spec.workloadRef"']);
    const typo = pod({ workloadRef: { name: 'w', podGroup: 'g', podGrup: 'h' } });
    expect(decodeProblems(POD, typo, 35).strict).to.deep.equal(['unknown field "spec.workloadRef.podGrup"']);
  });

  it('CSIDriverSpec.serviceAccountTokenInSecrets (1.35) and preventPodSchedulingIfMissing (1.36), with their types', () => {
    const value = { ...driver, spec: { serviceAccountTokenInSecrets: true, preventPodSchedulingIfMissing: false } };
    expect(decodeProblems(CSI, structuredClone(value), 36)).to.deep.include({ typeError: undefined, strict: [] });
    expect(decodeProblems(CSI, structuredClone(value), 35).strict).to.deep.equal([
      'unknown field "spec.preventPodSchedulingIfMissing"',
    ]);
    const wrongType = { ...driver, spec: { serviceAccountTokenInSecrets: 'yes' } };
    expect(decodeProblems(CSI, wrongType, 36).typeError).to.match(/cannot unmarshal string into .* of type bool/);
  });

  it("a type error names the field's named Go type, as encoding/json does (PersistentVolumeAccessMode, RestartPolicy)", () => {
    const PVC = { group: '', version: 'v1', kind: 'PersistentVolumeClaim' };
    const claim = (spec: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c' },
      spec,
    });
    expect(decodeProblems(PVC, claim({ accessModes: 'ReadWriteOnce' }), 36).typeError).to.equal(
      'json: cannot unmarshal string into Go struct field PersistentVolumeClaimSpec.spec.accessModes of type []v1.PersistentVolumeAccessMode',
    );
    expect(decodeProblems(PVC, claim({ accessModes: [5] }), 36).typeError).to.equal(
      'json: cannot unmarshal number into Go struct field PersistentVolumeClaimSpec.spec.accessModes of type v1.PersistentVolumeAccessMode',
    );
    expect(decodeProblems(POD, pod({ restartPolicy: 1 }), 36).typeError).to.equal(
      'json: cannot unmarshal number into Go struct field PodSpec.spec.restartPolicy of type v1.RestartPolicy',
    );
  });
});
