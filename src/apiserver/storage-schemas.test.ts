/**
 * P20 — R110/R240 for the storage kinds (issue 36): PersistentVolume, PersistentVolumeClaim (core/v1),
 * StorageClass, CSIDriver, CSINode and VolumeAttachment (storage.k8s.io/v1) have their OpenAPI
 * schemas (schemas.ts, from k8s.io/api core/v1 and storage/v1 types.go), served only with the
 * release's fields, and go through the one strict decoder as every built-in kind does.
 */
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { SmdSchema } from './managedfields/schema';
import { definitionName } from './schemas';
import { decodeProblems, definitionsForRelease, hasSchema } from './strict-decoding';
import { openApiDocument } from '../frontends/server/openapi';
import { request, startServer, type TestServer } from '../frontends/server/testing';
import { Release } from '../foundation/release';

const STORAGE = (kind: string) => ({ group: 'storage.k8s.io', version: 'v1', kind });
const CORE = (kind: string) => ({ group: '', version: 'v1', kind });

describe('R110 the schemas of the storage kinds', () => {
  it('their models are named by their packages: storage/v1 (StorageV1TokenRequest too), core/v1 for the claims and volumes', () => {
    expect(
      ['V1VolumeAttachmentSource', 'V1CSINodeDriver', 'StorageV1TokenRequest', 'V1PersistentVolumeSpec'].map(
        definitionName,
      ),
    ).to.deep.equal([
      'io.k8s.api.storage.v1.VolumeAttachmentSource',
      'io.k8s.api.storage.v1.CSINodeDriver',
      'io.k8s.api.storage.v1.TokenRequest',
      'io.k8s.api.core.v1.PersistentVolumeSpec',
    ]);
  });

  it('the v3 document of storage.k8s.io/v1 carries the four kinds with their group-version-kind; api/v1 the volume and the claim', () => {
    type Doc = { components: { schemas: Record<string, { 'x-kubernetes-group-version-kind'?: unknown[] }> } };
    const storage = openApiDocument('/openapi/v3/apis/storage.k8s.io/v1', Release.parse('v1.36')) as Doc;
    for (const kind of ['StorageClass', 'CSIDriver', 'CSINode', 'VolumeAttachment'])
      expect(
        storage.components.schemas[`io.k8s.api.storage.v1.${kind}`]['x-kubernetes-group-version-kind'],
      ).to.deep.equal([STORAGE(kind)]);
    const core = openApiDocument('/openapi/v3/api/v1', Release.parse('v1.36')) as Doc;
    expect(
      core.components.schemas['io.k8s.api.core.v1.PersistentVolume']['x-kubernetes-group-version-kind'],
    ).to.deep.equal([CORE('PersistentVolume')]);
    expect(core.components.schemas).to.have.property('io.k8s.api.core.v1.PersistentVolumeClaimSpec');
  });

  it("the Go types' list markers: CSINode drivers merge by name, claim conditions by type, access modes are atomic", () => {
    const defs = definitionsForRelease(36);
    expect(defs['io.k8s.api.storage.v1.CSINodeSpec'].properties!.drivers).to.deep.include({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      'x-kubernetes-patch-merge-key': 'name',
    });
    expect(defs['io.k8s.api.core.v1.PersistentVolumeClaimStatus'].properties!.conditions).to.deep.include({
      'x-kubernetes-list-map-keys': ['type'],
    });
    expect(defs['io.k8s.api.core.v1.PersistentVolumeSpec'].properties!.accessModes).to.deep.include({
      'x-kubernetes-list-type': 'atomic',
    });
  });

  it("a PersistentVolume's claimRef is a granular ObjectReference (+structType=granular), an Event's involvedObject stays atomic", () => {
    const defs = definitionsForRelease(36);
    const smd = new SmdSchema(defs);
    const claimRef = smd.type(defs['io.k8s.api.core.v1.PersistentVolumeSpec'].properties!.claimRef);
    const involved = smd.type(defs['io.k8s.api.core.v1.Event'].properties!.involvedObject);
    expect([claimRef.kind === 'map' && claimRef.atomic, involved.kind === 'map' && involved.atomic]).to.deep.equal([
      false,
      true,
    ]);
  });

  it("only the release's fields: VolumeError.errorCode from v1.33, CSIDriverSpec.nodeAllocatableUpdatePeriodSeconds from v1.33, PersistentVolumeSpec.volumeAttributesClassName from v1.29", () => {
    const props = (minor: number, def: string) => Object.keys(definitionsForRelease(minor)[def].properties!);
    expect(props(32, 'io.k8s.api.storage.v1.VolumeError')).to.not.include('errorCode');
    expect(props(33, 'io.k8s.api.storage.v1.VolumeError')).to.include('errorCode');
    expect(props(32, 'io.k8s.api.storage.v1.CSIDriverSpec')).to.not.include('nodeAllocatableUpdatePeriodSeconds');
    expect(props(28, 'io.k8s.api.core.v1.PersistentVolumeSpec')).to.not.include('volumeAttributesClassName');
    expect(props(29, 'io.k8s.api.core.v1.PersistentVolumeSpec')).to.include('volumeAttributesClassName');
  });
});

describe('R240 strict decoding of the storage kinds', () => {
  it('each of the six kinds has a schema in every release', () => {
    for (const minor of [26, 33, 36])
      for (const gvk of [
        CORE('PersistentVolume'),
        CORE('PersistentVolumeClaim'),
        ...['StorageClass', 'CSIDriver', 'CSINode', 'VolumeAttachment'].map(STORAGE),
      ])
        expect(hasSchema(gvk, minor), `${gvk.kind} in 1.${minor}`).to.equal(true);
  });

  it('unknown fields at any depth, by their paths; parameters and attachmentMetadata are maps of any key', () => {
    expect(
      decodeProblems(
        STORAGE('VolumeAttachment'),
        {
          spec: { attacher: 'csi.example.com', nodeName: 'n1', source: { persistentVolumeNam: 'pv-1' } },
          status: { attached: true, attachmentMetadata: { anything: 'x' } },
        },
        36,
      ).strict,
    ).to.deep.equal(['unknown field "spec.source.persistentVolumeNam"']);
    expect(
      decodeProblems(
        STORAGE('StorageClass'),
        { provisioner: 'csi.example.com', parameters: { type: 'ssd' }, volumeBindingMod: 'Immediate' },
        36,
      ).strict,
    ).to.deep.equal(['unknown field "volumeBindingMod"']);
    expect(
      decodeProblems(
        CORE('PersistentVolume'),
        { spec: { capacity: { storage: '1Gi' }, csi: { driver: 'd', volumeHandle: 'h', fsTyp: 'ext4' } } },
        36,
      ).strict,
    ).to.deep.equal(['unknown field "spec.csi.fsTyp"']);
  });

  it('a field of a later release is unknown to an earlier one (VolumeError.errorCode before v1.33)', () => {
    const va = { spec: {}, status: { attached: false, attachError: { message: 'timeout', errorCode: 4 } } };
    expect(decodeProblems(STORAGE('VolumeAttachment'), va, 32).strict).to.deep.equal([
      'unknown field "status.attachError.errorCode"',
    ]);
    expect(decodeProblems(STORAGE('VolumeAttachment'), va, 33).strict).to.deep.equal([]);
  });

  it("a claim's resources.requests is known in every release: the type was renamed (ResourceRequirements → VolumeResourceRequirements in v0.29), not added", () => {
    const claim = { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    for (const minor of [26, 28, 29, 36])
      expect(decodeProblems(CORE('PersistentVolumeClaim'), claim, minor).strict, `1.${minor}`).to.deep.equal([]);
  });

  it('a wrong type is the decoder’s error naming the Go struct; a capacity takes a number (a quantity)', () => {
    expect(decodeProblems(CORE('PersistentVolumeClaim'), { spec: { volumeName: 5 } }, 36).typeError).to.equal(
      'json: cannot unmarshal number into Go struct field PersistentVolumeClaimSpec.spec.volumeName of type string',
    );
    expect(decodeProblems(CORE('PersistentVolume'), { spec: { capacity: { storage: 1073741824 } } }, 36)).to.deep.equal(
      { typeError: undefined, strict: [] },
    );
  });
});

describe('R240 the storage kinds over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('a create under Strict with a duplicate and an unknown field is a 400 in upstream’s words; nothing is stored', async () => {
    const body =
      '{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data"},' +
      '"spec":{"accessModes":["ReadWriteOnce"],"accessModes":["ReadWriteOnce"],"storageClass":"fast",' +
      '"resources":{"requests":{"storage":"1Gi"}}}}';
    const created = await request(
      server.base,
      'POST',
      '/api/v1/namespaces/default/persistentvolumeclaims?fieldValidation=Strict',
      { body },
    );
    expect(created.status).to.equal(400);
    expect(created.json.message).to.equal(
      'PersistentVolumeClaim in version "v1" cannot be handled as a PersistentVolumeClaim: strict decoding error: duplicate field "spec.accessModes", unknown field "spec.storageClass"',
    );
    const got = await request(server.base, 'GET', '/api/v1/namespaces/default/persistentvolumeclaims/data');
    expect(got.status).to.equal(404);
  });

  it('a VolumeAttachment with an unknown field under Warn is stored without it, with a warning', async () => {
    const body = JSON.stringify({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'csi-1' },
      spec: { attacher: 'csi.example.com', nodeName: 'n1', nodeNme: 'n2', source: { persistentVolumeName: 'pv-1' } },
    });
    const created = await request(server.base, 'POST', '/apis/storage.k8s.io/v1/volumeattachments', { body });
    expect(created.status).to.equal(201);
    expect(created.headers.warning).to.equal('299 - "unknown field \\"spec.nodeNme\\""');
    expect(created.json.spec).to.not.have.property('nodeNme');
  });
});
