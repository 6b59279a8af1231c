import { Root, type Type } from 'protobufjs/light';
import { badRequest } from '../apiserver/errors';
import { unsupportedMediaType } from './status';

/**
 * R77 — request bodies in Kubernetes' protobuf encoding (`application/vnd.kubernetes.protobuf`), for the
 * kind clients send that way to this API: client-go's typed pod client — `kubectl drain
 * --disable-eviction` deletes pods with it — encodes its DeleteOptions so. A body is the magic
 * `k8s\0` and a runtime.Unknown (apimachinery runtime/serializer/protobuf): the TypeMeta, then the
 * object's own message in `raw`. The messages below carry the field numbers of apimachinery's and
 * k8s.io/api's generated.proto, for the fields this API reads (others are skipped, as protobuf does).
 */
export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

const MAGIC = Buffer.from('k8s\0', 'latin1');

/**
 * A message whose fields are numbered 1, 2, 3… in the order given, as the fields of these
 * generated.proto messages are; `T[]` is a repeated field.
 */
function message(fields: Record<string, string>): { fields: Record<string, { type: string; id: number; rule?: string }> } {
  const numbered = Object.entries(fields).map(([name, type], i) => [name, type.endsWith('[]') ? { rule: 'repeated', type: type.slice(0, -2), id: i + 1 } : { type, id: i + 1 }]);
  return { fields: Object.fromEntries(numbered) };
}

const root = Root.fromJSON({
  nested: {
    TypeMeta: message({ apiVersion: 'string', kind: 'string' }),
    Unknown: message({ typeMeta: 'TypeMeta', raw: 'bytes', contentEncoding: 'string', contentType: 'string' }),
    Preconditions: message({ uid: 'string', resourceVersion: 'string' }),
    DeleteOptions: message({
      gracePeriodSeconds: 'int64',
      preconditions: 'Preconditions',
      orphanDependents: 'bool',
      propagationPolicy: 'string',
      dryRun: 'string[]',
      ignoreStoreReadErrorWithClusterBreakingPotential: 'bool',
    }),
  },
});

/** The kinds decoded from protobuf, by apiVersion/kind (DeleteOptions is registered in every group version; kubectl sends v1). */
const KINDS: Record<string, Type> = {
  'v1/DeleteOptions': root.lookupType('DeleteOptions'),
  'meta.k8s.io/v1/DeleteOptions': root.lookupType('DeleteOptions'),
};

/**
 * Decodes a protobuf body into the JSON form of its object (apiVersion and kind from its TypeMeta,
 * int64 as numbers, unset fields absent). A body without the magic or that does not parse is 400,
 * as the protobuf serializer's errors are; a kind this API does not decode from protobuf is 415,
 * naming the JSON it does take.
 */
export function decodeProtobufBody(body: Buffer): Record<string, unknown> {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw badRequest(`provided data does not appear to be a protobuf message, expected prefix ${JSON.stringify(MAGIC.toString('latin1'))}`);
  }
  const unknown = parse(root.lookupType('Unknown'), body.subarray(MAGIC.length)) as { typeMeta?: { apiVersion?: string; kind?: string }; raw?: Uint8Array };
  const apiVersion = unknown.typeMeta?.apiVersion ?? '';
  const kind = unknown.typeMeta?.kind ?? '';
  const type = KINDS[`${apiVersion}/${kind}`];
  if (!type) {
    throw unsupportedMediaType(['application/json', 'application/yaml', `${PROTOBUF} (for DeleteOptions only; ${apiVersion}/${kind} was sent)`]);
  }
  return { apiVersion, kind, ...parse(type, unknown.raw ?? new Uint8Array()) };
}

function parse(type: Type, bytes: Uint8Array): Record<string, unknown> {
  try {
    return type.toObject(type.decode(bytes), { longs: Number, arrays: false, defaults: false });
  } catch (e) {
    throw badRequest(`unable to decode ${type.name} from protobuf: ${(e as Error).message}`);
  }
}
