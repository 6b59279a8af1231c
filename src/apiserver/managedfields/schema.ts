/**
 * The structured-merge-diff view of an OpenAPI schema (kube-openapi pkg/schemaconv, the converter
 * kube-apiserver runs over its own OpenAPI document to build the type converter of server-side
 * apply): every node is a scalar, a map (a struct with named fields, or a granular map of
 * `additionalProperties`), a list, or untyped (x-kubernetes-preserve-unknown-fields, or a type the
 * document does not describe: the "deduced" type, whose maps are granular and lists atomic).
 *
 * Lists take their merge relationship from `x-kubernetes-list-type` (`atomic`, `set`, `map` with
 * `x-kubernetes-list-map-keys`); without one, a `merge` patch strategy makes an associative list
 * keyed by `x-kubernetes-patch-merge-key` (or a set when there is no key), and anything else is
 * atomic (schemaconv getListElementRelationship). `x-kubernetes-map-type: atomic` makes a struct
 * or map one unit.
 */

/** An OpenAPI (v2 or v3) schema object, as far as the conversion reads it. */
export interface OpenApiSchema {
  readonly $ref?: string;
  readonly allOf?: readonly OpenApiSchema[];
  readonly type?: string;
  readonly format?: string;
  readonly description?: string;
  readonly default?: unknown;
  readonly properties?: Readonly<Record<string, OpenApiSchema>>;
  readonly additionalProperties?: OpenApiSchema | boolean;
  readonly items?: OpenApiSchema;
  readonly required?: readonly string[];
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-map-type'?: 'atomic' | 'granular';
  readonly 'x-kubernetes-patch-strategy'?: string;
  readonly 'x-kubernetes-patch-merge-key'?: string;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-group-version-kind'?: readonly { group: string; version: string; kind: string }[];
}

export type SmdType =
  | { readonly kind: 'scalar' }
  | { readonly kind: 'untyped' }
  | {
      readonly kind: 'map';
      readonly fields?: Readonly<Record<string, OpenApiSchema>>;
      readonly element?: OpenApiSchema;
      readonly atomic: boolean;
    }
  | {
      readonly kind: 'list';
      readonly element: OpenApiSchema;
      readonly relationship: 'atomic' | 'set' | 'associative';
      readonly keys: readonly string[];
    };

const UNTYPED: SmdType = { kind: 'untyped' };
const SCALAR: SmdType = { kind: 'scalar' };

/** Resolves schema nodes against a document's definitions (`#/definitions/…` or `#/components/schemas/…`). */
export class SmdSchema {
  /** Weak: a custom resource's schema nodes go with the CRD version they came from. */
  private readonly resolved = new WeakMap<OpenApiSchema, SmdType>();

  constructor(private readonly definitions: Readonly<Record<string, OpenApiSchema>>) {}

  /** The definition of a name (`io.k8s.api.core.v1.Pod`). */
  definition(name: string): OpenApiSchema | undefined {
    return this.definitions[name];
  }

  /** The node a reference (or an allOf of one reference, as v3 documents wrap them) points to. */
  deref(s: OpenApiSchema): OpenApiSchema {
    let node = s;
    for (let i = 0; i < 8; i++) {
      const ref = node.$ref ?? (node.allOf?.length === 1 ? node.allOf[0].$ref : undefined);
      if (!ref) return node;
      const target = this.definitions[ref.slice(ref.lastIndexOf('/') + 1)];
      if (!target) return {};
      node = target;
    }
    return node;
  }

  type(s: OpenApiSchema | undefined): SmdType {
    if (!s) return UNTYPED;
    const node = this.deref(s);
    let t = this.resolved.get(node);
    if (!t) this.resolved.set(node, (t = this.convert(node)));
    // A field's own `x-kubernetes-map-type` overrides its referenced struct's (smd TypeRef's
    // ElementRelationship): PersistentVolumeSpec.claimRef is a granular ObjectReference.
    const override = s !== node ? s['x-kubernetes-map-type'] : undefined;
    if (override && t.kind === 'map' && t.atomic !== (override === 'atomic')) return { ...t, atomic: !t.atomic };
    return t;
  }

  private convert(s: OpenApiSchema): SmdType {
    if (s['x-kubernetes-preserve-unknown-fields']) return UNTYPED;
    if (s['x-kubernetes-int-or-string']) return SCALAR;
    if (s.type === 'array') {
      const listType = s['x-kubernetes-list-type'];
      const strategy = s['x-kubernetes-patch-strategy'] ?? '';
      const mergeKey = s['x-kubernetes-patch-merge-key'];
      const element = s.items ?? {};
      if (listType === 'map')
        return { kind: 'list', element, relationship: 'associative', keys: s['x-kubernetes-list-map-keys'] ?? [] };
      if (listType === 'set') return { kind: 'list', element, relationship: 'set', keys: [] };
      if (listType === 'atomic') return { kind: 'list', element, relationship: 'atomic', keys: [] };
      if (strategy.split(',').includes('merge')) {
        return mergeKey
          ? { kind: 'list', element, relationship: 'associative', keys: [mergeKey] }
          : { kind: 'list', element, relationship: 'set', keys: [] };
      }
      return { kind: 'list', element, relationship: 'atomic', keys: [] };
    }
    if (s.type === 'object' || s.properties || s.additionalProperties) {
      const atomic = s['x-kubernetes-map-type'] === 'atomic';
      const element =
        typeof s.additionalProperties === 'object' ? s.additionalProperties : s.properties ? undefined : {};
      return { kind: 'map', fields: s.properties, element, atomic };
    }
    if (s.type) return SCALAR;
    return UNTYPED;
  }
}
