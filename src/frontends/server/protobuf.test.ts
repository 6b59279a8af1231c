import * as http from 'node:http';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { StatusError } from '../../apimachinery/errors';
import {
  decodeProtobufBody,
  encodeProtobuf,
  hasProtobuf,
  messageFor,
  protobufListFrame,
  protobufWatchFrame,
} from './protobuf';
import { writeProtobufList } from './list-encoding';
import { startServer } from './testing';
import { groupVersionString, SERVED_RESOURCES } from '../../apiserver/resources';
import { USER } from '../../cluster/cluster';

/** Bytes as the real kubectl v1.33.9 sent them (`kubectl drain node-1 --force --disable-eviction`, with `--grace-period=5`, with `--dry-run=server`), captured at the server. */
const KUBECTL_DRAIN = Buffer.from('k8s\0\n\x13\n\x02v1\x12\rDeleteOptions\x12\0\x1a\0"\0', 'latin1');
const KUBECTL_DRAIN_GRACE_5 = Buffer.from('k8s\0\n\x13\n\x02v1\x12\rDeleteOptions\x12\x02\x08\x05\x1a\0"\0', 'latin1');
const KUBECTL_DRAIN_DRY_RUN = Buffer.from('k8s\0\n\x13\n\x02v1\x12\rDeleteOptions\x12\x05*\x03All\x1a\0"\0', 'latin1');

/**
 * A `<Kind>List` body as a LIST sends it: writeProtobufList streaming the items' messages into a
 * response that keeps what it is given (a copy of each chunk: the writer reuses its chunks).
 */
async function streamedList(
  list: { apiVersion: string; kind: string; metadata: Record<string, unknown> },
  items: readonly Uint8Array[],
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const res = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  const response = Object.assign(res, { writeHead: () => response }) as unknown as http.ServerResponse;
  const ended = new Promise((resolve) => res.once('finish', resolve));
  await writeProtobufList(response, 'application/vnd.kubernetes.protobuf', protobufListFrame(list, items), items);
  await ended;
  return Buffer.concat(chunks);
}

/** A protobuf field key: field number and wire type (0 varint, 2 length-delimited). */
const key = (field: number, wire: 0 | 2) => Buffer.from([(field << 3) | wire]);
const bytesField = (field: number, value: Buffer) => Buffer.concat([key(field, 2), Buffer.from([value.length]), value]);
const stringField = (field: number, value: string) => bytesField(field, Buffer.from(value, 'utf8'));
const varintField = (field: number, value: number) => Buffer.concat([key(field, 0), Buffer.from([value])]);

/** k8s\0 + runtime.Unknown{typeMeta, raw}, written field by field (no encoder of ours in the way). */
function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  const typeMeta = Buffer.concat([stringField(1, apiVersion), stringField(2, kind)]);
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), bytesField(1, typeMeta), bytesField(2, raw)]);
}

function statusOf(fn: () => unknown): { code: number; reason?: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e.status as { code: number; reason?: string; message: string };
    throw e;
  }
  throw new Error('expected a Status error');
}

describe('protobuf request bodies (R77)', () => {
  it('decodes the DeleteOptions the real kubectl drain sends: empty, with a grace period, with a server dry run', () => {
    expect(decodeProtobufBody(KUBECTL_DRAIN)).to.deep.equal({ apiVersion: 'v1', kind: 'DeleteOptions' });
    expect(decodeProtobufBody(KUBECTL_DRAIN_GRACE_5)).to.deep.equal({
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 5,
    });
    expect(decodeProtobufBody(KUBECTL_DRAIN_DRY_RUN)).to.deep.equal({
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      dryRun: ['All'],
    });
  });

  it('keeps a field set to its zero value (grace 0 is not "no grace period"), and reads every DeleteOptions field', () => {
    const preconditions = Buffer.concat([stringField(1, 'uid-1'), stringField(2, '42')]);
    const raw = Buffer.concat([
      varintField(1, 0),
      bytesField(2, preconditions),
      varintField(3, 0),
      stringField(4, 'Foreground'),
      stringField(5, 'All'),
    ]);
    expect(decodeProtobufBody(envelope('v1', 'DeleteOptions', raw))).to.deep.equal({
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 0,
      preconditions: { uid: 'uid-1', resourceVersion: '42' },
      orphanDependents: false,
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
    });
  });

  it('answers a body without the magic, or one that does not parse, with 400; a kind it does not decode with 415 saying what it takes', () => {
    expect(statusOf(() => decodeProtobufBody(Buffer.from('{"kind":"DeleteOptions"}')))).to.include({
      code: 400,
      reason: 'BadRequest',
    });
    expect(statusOf(() => decodeProtobufBody(Buffer.from('k8s\0\n\x40\n', 'latin1'))).message).to.match(
      /^unable to decode Unknown from protobuf: /,
    );
    const service = statusOf(() => decodeProtobufBody(envelope('v1', 'LimitRange', Buffer.alloc(0))));
    expect(service).to.include({ code: 415, reason: 'UnsupportedMediaType' });
    expect(service.message).to.equal(
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf (for the built-in kinds served here; v1/LimitRange was sent)',
    );
  });

  it('decodes a Secret as gogo-protobuf writes it: empty strings of omitempty fields left out, bytes as base64, maps as objects', () => {
    // ObjectMeta{name: "db", generateName: "", namespace: ""}, data {user: "admin"}, type "Opaque", as the typed client encodes them.
    const meta = Buffer.concat([stringField(1, 'db'), stringField(2, ''), stringField(3, '')]);
    const entry = Buffer.concat([stringField(1, 'user'), bytesField(2, Buffer.from('admin'))]);
    const raw = Buffer.concat([bytesField(1, meta), bytesField(2, entry), stringField(3, 'Opaque')]);
    expect(decodeProtobufBody(envelope('v1', 'Secret', raw))).to.deep.equal({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db' },
      data: { user: 'YWRtaW4=' },
      type: 'Opaque',
    });
  });

  it('encodes what it decodes: Time, MicroTime, Quantity, IntOrString, FieldsV1, inline volume sources, maps and bytes round-trip', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web',
        namespace: 'default',
        labels: { app: 'web' },
        creationTimestamp: '2025-01-01T00:00:00Z',
        deletionGracePeriodSeconds: 0,
        managedFields: [
          {
            manager: 'kubectl',
            operation: 'Update',
            apiVersion: 'v1',
            time: '2025-01-01T00:00:01Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:metadata': { 'f:labels': {} } },
          },
        ],
      },
      spec: {
        containers: [
          {
            name: 'app',
            image: 'nginx',
            resources: { requests: { cpu: '100m', memory: '64Mi' } },
            readinessProbe: { httpGet: { path: '/', port: 'http' } },
            ports: [{ containerPort: 80, protocol: 'TCP' }],
          },
        ],
        volumes: [{ name: 'cfg', configMap: { name: 'settings', defaultMode: 420 } }],
        terminationGracePeriodSeconds: 30,
      },
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            image: 'nginx',
            imageID: '',
            ready: false,
            restartCount: 0,
            state: { running: { startedAt: '2025-01-01T00:00:02Z' } },
          },
        ],
      },
    };
    expect(decodeProtobufBody(encodeProtobuf(pod)!)).to.deep.equal(pod);
    const event = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e' },
      eventTime: '2025-01-01T00:00:03.250000Z',
      reason: 'Killing',
    };
    expect(decodeProtobufBody(encodeProtobuf(event)!)).to.deep.equal(event);
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data: { k: 'YQ==' },
      type: 'Opaque',
      immutable: false,
    };
    expect(decodeProtobufBody(encodeProtobuf(secret)!)).to.deep.equal(secret);
  });

  it("a list is ListMeta then its items; a watch event is a length-prefixed WatchEvent holding the object's whole body", async () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' }, status: { phase: 'Active' } };
    const item = messageFor('v1', 'Namespace')!
      .encode(messageFor('v1', 'Namespace')!.fromObject({ metadata: { name: 'x' }, status: { phase: 'Active' } }))
      .finish();
    const list = decodeProtobufBody(
      await streamedList({ apiVersion: 'v1', kind: 'NamespaceList', metadata: { resourceVersion: '7' } }, [item]),
    );
    expect(list).to.deep.equal({
      apiVersion: 'v1',
      kind: 'NamespaceList',
      metadata: { resourceVersion: '7' },
      items: [{ metadata: { name: 'x' }, status: { phase: 'Active' } }],
    });
    const body = encodeProtobuf(ns)!;
    const frame = protobufWatchFrame('ADDED', body);
    expect(frame.readUInt32BE(0)).to.equal(frame.length - 4);
    const watchEvent = messageFor('v1', 'WatchEvent')!;
    const decoded = watchEvent.toObject(watchEvent.decode(frame.subarray(4))) as {
      type: string;
      object: { raw: Uint8Array };
    };
    expect(decoded.type).to.equal('ADDED');
    expect(decodeProtobufBody(Buffer.from(decoded.object.raw))).to.deep.equal(ns);
  });
  it("R77 a list body written from its items' messages is byte for byte the encoding of the whole list (lengths of 1–3 varint bytes)", async () => {
    const nsType = messageFor('v1', 'Namespace')!;
    for (const count of [0, 1, 300]) {
      const namespaces = Array.from({ length: count }, (_, i) => ({
        metadata: { name: `ns-${i}`, labels: { long: 'x'.repeat(i % 200) } },
        status: { phase: 'Active' },
      }));
      const items = namespaces.map((ns) => nsType.encode(nsType.fromObject(ns)).finish());
      const list = { apiVersion: 'v1', kind: 'NamespaceList', metadata: { resourceVersion: '7' } };
      const whole = encodeProtobuf({ ...list, items: namespaces })!;
      expect(Buffer.compare(await streamedList(list, items), whole)).to.equal(0, `${count} items`);
    }
  });
  it('N17 Services, Endpoints and EndpointSlices have their messages (discovery/v1 from k8s.io/api): a slice survives a round trip', () => {
    for (const [apiVersion, kind] of [
      ['v1', 'Service'],
      ['v1', 'ServiceList'],
      ['v1', 'Endpoints'],
      ['discovery.k8s.io/v1', 'EndpointSlice'],
      ['discovery.k8s.io/v1', 'EndpointSliceList'],
    ])
      expect(hasProtobuf(apiVersion, kind), kind).to.equal(true);
    const slice = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'web-abcde', namespace: 'default' },
      addressType: 'IPv4',
      endpoints: [
        {
          addresses: ['10.244.0.2'],
          conditions: { ready: false, serving: true, terminating: true },
          nodeName: 'node-1',
        },
      ],
      ports: [{ name: '', port: 8080, protocol: 'TCP' }],
    };
    expect(decodeProtobufBody(encodeProtobuf(slice)!)).to.deep.equal(slice);
  });
});

describe('protobuf answers over HTTP (R77)', () => {
  it('every served kind and its list has a message (else: add it to scripts/protobuf-descriptors.ts ROOTS and regenerate)', () => {
    // CustomResourceDefinitions are answered in JSON: their JSONSchemaProps carry hand-written
    // marshalling (JSON, JSONSchemaPropsOrArray, JSONSchemaPropsOrBool) the descriptor-driven codec
    // does not model, and the clients that write them (kubectl apply, client-node) send JSON.
    // MutatingAdmissionPolicies (v1 from 1.36) are answered in JSON too: the descriptors are read
    // from k8s.io/api v0.33.9, which has no admissionregistration/v1 message for them.
    const jsonOnly = ['customresourcedefinitions', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings'];
    const missing = SERVED_RESOURCES.filter((r) => !jsonOnly.includes(r.resource)).flatMap((r) =>
      [r.kind, `${r.kind}List`]
        .filter((k) => !messageFor(groupVersionString(r.group, r.version), k))
        .map((k) => `${groupVersionString(r.group, r.version)} ${k}`),
    );
    expect(missing).to.deep.equal([]);
  });

  it('a watch asked for in protobuf streams length-prefixed WatchEvents: ADDED for what exists, then the DELETE as it happens', async () => {
    const s = await startServer(['web']);
    try {
      const frames: Buffer[] = [];
      let contentType = '';
      let buffered = Buffer.alloc(0);
      const req = http.get(
        `${s.base}/api/v1/namespaces/default/pods?watch=true`,
        { headers: { Accept: 'application/vnd.kubernetes.protobuf;stream=watch, application/json' } },
        (res) => {
          contentType = String(res.headers['content-type']);
          res.on('data', (chunk: Buffer) => {
            buffered = Buffer.concat([buffered, chunk]);
            while (buffered.length >= 4 && buffered.length >= 4 + buffered.readUInt32BE(0)) {
              frames.push(buffered.subarray(4, 4 + buffered.readUInt32BE(0)));
              buffered = buffered.subarray(4 + buffered.readUInt32BE(0));
            }
          });
        },
      );
      const until = async (n: number) => {
        for (let i = 0; i < 200 && frames.length < n; i++) await new Promise((r) => setTimeout(r, 10));
      };
      await until(1);
      s.cluster.apiserver.delete(USER, 'pods', 'default', 'web', { gracePeriodSeconds: 0 });
      s.cluster.flush();
      await until(2);
      req.destroy();
      const watchEvent = messageFor('v1', 'WatchEvent')!;
      const events = frames.map(
        (f) => watchEvent.toObject(watchEvent.decode(f)) as { type: string; object: { raw: Uint8Array } },
      );
      expect(contentType).to.equal('application/vnd.kubernetes.protobuf;stream=watch');
      expect(
        events
          .slice(0, 2)
          .map((e) => [
            e.type,
            (decodeProtobufBody(Buffer.from(e.object.raw)) as { metadata: { name: string } }).metadata.name,
          ]),
      ).to.deep.equal([
        ['ADDED', 'web'],
        ['MODIFIED', 'web'],
      ]);
    } finally {
      await s.close();
    }
  });
});
