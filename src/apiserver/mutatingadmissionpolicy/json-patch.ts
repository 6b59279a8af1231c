/**
 * RFC 6902 JSON Patch as a MutatingAdmissionPolicy applies it: gopkg.in/evanphx/json-patch.v4
 * `Patch.Apply`, which patch/json_patch.go calls (SupportNegativeIndices on, the other options
 * off), with its error texts. Its own quirks are kept: `replace` of a missing object member sets
 * it (v4's partialDoc.get finds "nothing" without an error), `add` over a member overwrites it,
 * a negative index counts from the end.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** One operation: op, path, from (empty when not given) and the value (undefined when not given). */
export interface PatchOperation {
  readonly op: string;
  readonly path: string;
  readonly from: string;
  readonly value?: unknown;
}

/** A failed operation (errors.Wrapf's text: the context, then the cause). */
export class JsonPatchError extends Error {
  constructor(
    message: string,
    /** A `test` that did not hold (ErrTestFailed): the patch is then not applied, without an error. */
    readonly testFailed = false,
  ) {
    super(message);
  }
}

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';

const isObject = (v: unknown): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** decodePatchKey (RFC 6901): `~1` is `/`, then `~0` is `~`. */
const decodeKey = (k: string) => k.replace(/~1/g, '/').replace(/~0/g, '~');

/** A container (an object or an array) and the key of the last path segment in it. */
type Found = { readonly container: { [k: string]: Json } | Json[]; readonly key: string };

/** findObject: walks every segment but the last; undefined where a segment is missing or not a container. */
function findObject(doc: Json, path: string): Found | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let node: Json = doc;
  for (const part of split.slice(1, -1)) {
    const next = get(node, decodeKey(part), false);
    if (next === undefined || next === null || typeof next !== 'object') return undefined;
    node = next;
  }
  if (node === null || typeof node !== 'object') return undefined;
  return { container: node, key: decodeKey(split[split.length - 1]) };
}

/** strconv.Atoi's error, as Go prints it. */
function index(key: string): number {
  if (!/^[+-]?\d+$/.test(key)) throw new JsonPatchError(`strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  return Number(key);
}

/** partialArray's index check: negative counts from the end; out of range is ErrInvalidIndex. */
function arrayIndex(ary: readonly Json[], key: string, size = ary.length): number {
  let i = index(key);
  if (i < 0) {
    if (i < -size) throw new JsonPatchError(`Unable to access invalid index: ${i}: ${INVALID_INDEX}`);
    i += size;
  }
  if (i >= size) throw new JsonPatchError(`Unable to access invalid index: ${i}: ${INVALID_INDEX}`);
  return i;
}

/** container.get: an object's member (undefined when absent, no error), an array's item (an error when out of range). */
function get(node: Json, key: string, strict = true): Json | undefined {
  if (Array.isArray(node)) {
    try {
      return node[arrayIndex(node, key)];
    } catch (e) {
      if (strict) throw e;
      return undefined;
    }
  }
  return isObject(node) ? node[key] : undefined;
}

function add(c: Found, value: Json): void {
  if (!Array.isArray(c.container)) {
    c.container[c.key] = value;
    return;
  }
  if (c.key === '-') {
    c.container.push(value);
    return;
  }
  // partialArray.add: the index may be the length (an append); negative counts from the new end.
  const i = arrayIndex(c.container, c.key, c.container.length + 1);
  c.container.splice(i, 0, value);
}

function remove(c: Found): void {
  if (Array.isArray(c.container)) {
    c.container.splice(arrayIndex(c.container, c.key), 1);
    return;
  }
  if (!(c.key in c.container)) throw new JsonPatchError(`Unable to remove nonexistent key: ${c.key}: ${MISSING}`);
  delete c.container[c.key];
}

const wrap = (context: string, e: unknown): JsonPatchError =>
  new JsonPatchError(`${context}: ${(e as Error).message}`, e instanceof JsonPatchError && e.testFailed);

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (isObject(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical(v[k])]),
    );
  return v;
}

/** Patch.Apply over a copy of `doc`: the patched document, or a JsonPatchError. */
export function applyJsonPatch(doc: unknown, operations: readonly PatchOperation[]): unknown {
  const root = structuredClone(doc) as Json;
  for (const op of operations) {
    const value = (op.value === undefined ? null : structuredClone(op.value)) as Json;
    switch (op.op) {
      case 'add': {
        const c = findObject(root, op.path);
        if (!c) throw new JsonPatchError(`add operation does not apply: doc is missing path: "${op.path}": ${MISSING}`);
        try {
          add(c, value);
        } catch (e) {
          throw wrap(`error in add for path: '${op.path}'`, e);
        }
        break;
      }
      case 'remove': {
        const c = findObject(root, op.path);
        if (!c)
          throw new JsonPatchError(`remove operation does not apply: doc is missing path: "${op.path}": ${MISSING}`);
        try {
          remove(c);
        } catch (e) {
          throw wrap(`error in remove for path: '${op.path}'`, e);
        }
        break;
      }
      case 'replace': {
        const c = findObject(root, op.path);
        if (!c)
          throw new JsonPatchError(`replace operation does not apply: doc is missing path: ${op.path}: ${MISSING}`);
        try {
          get(c.container, c.key);
        } catch {
          throw new JsonPatchError(`replace operation does not apply: doc is missing key: ${op.path}: ${MISSING}`);
        }
        if (Array.isArray(c.container)) c.container[arrayIndex(c.container, c.key)] = value;
        else c.container[c.key] = value;
        break;
      }
      case 'move':
      case 'copy': {
        const from = findObject(root, op.from);
        if (!from)
          throw new JsonPatchError(
            `${op.op} operation does not apply: doc is missing from path: ${op.from}: ${MISSING}`,
          );
        let moved: Json | undefined;
        try {
          moved = get(from.container, from.key);
          if (op.op === 'move') remove(from);
        } catch (e) {
          throw wrap(
            op.op === 'move' ? `error in move for path: '${from.key}'` : `error in copy for from: '${op.from}'`,
            e,
          );
        }
        const to = findObject(root, op.path);
        if (!to)
          throw new JsonPatchError(
            `${op.op} operation does not apply: doc is missing destination path: ${op.path}: ${MISSING}`,
          );
        try {
          add(to, (moved === undefined ? null : structuredClone(moved)) as Json);
        } catch (e) {
          throw wrap(
            op.op === 'move' ? `error in move for path: '${op.path}'` : 'error while adding value during copy',
            e,
          );
        }
        break;
      }
      case 'test': {
        const c = findObject(root, op.path);
        if (!c) throw new JsonPatchError(`test operation does not apply: is missing path: ${op.path}: ${MISSING}`);
        let actual: Json | undefined;
        try {
          actual = get(c.container, c.key);
        } catch (e) {
          throw wrap(`error in test for path: '${op.path}'`, e);
        }
        const holds = actual === undefined ? op.value === undefined || op.value === null : equal(actual, value);
        if (!holds) throw new JsonPatchError(`testing value ${op.path} failed: test failed`, true);
        break;
      }
      default:
        throw new JsonPatchError(`Unexpected kind: ${op.op}`);
    }
  }
  return root;
}
