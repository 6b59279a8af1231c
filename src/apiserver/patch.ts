import { applyPatch, type Operation } from 'fast-json-patch';
import { unprocessable } from '../apimachinery/errors';
import { clone } from '../apimachinery/object';
import { strategicMergePatch, StrategicMergeError } from './strategic-merge';

/** The patch types the simulated apiserver accepts (Content-Type of a PATCH). */
export type PatchType = 'merge' | 'json' | 'strategic';

/**
 * Applies a PATCH body to the current object the way the patch handler does
 * (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go): RFC 7386 JSON merge patch, or
 * RFC 6902 JSON Patch through fast-json-patch, or a strategic merge patch (strategic-merge.ts). A JSON Patch that cannot apply is a 422.
 */
export function applyPatchBody<T>(
  current: T,
  type: PatchType,
  body: unknown,
  /**
   * A status update without admission or managed fields: the lists under `status` may be taken
   * from the body as they are (nothing on the way to storage changes them in place, and storage's
   * encoder copies every list it keeps, so nothing stored shares them), and `current` is the
   * caller's own fresh copy of the stored object (GuaranteedUpdate's), whose root and metadata the
   * patch is merged into instead of copying them once more.
   */
  statusListsAsSent = false,
): T {
  if (type === 'merge') return mergePatch(current, body, statusListsAsSent ? 'root' : 'copy') as T;
  if (type === 'strategic') {
    try {
      return strategicMergePatch(current, body);
    } catch (e) {
      // patch.go strategicPatchObject: a patch that cannot be applied is a 422 naming the merge error.
      if (!(e instanceof StrategicMergeError)) throw e;
      throw unprocessable(e.message);
    }
  }
  try {
    return applyPatch(clone(current), body as Operation[], true, false).newDocument;
  } catch (e) {
    throw unprocessable(
      `the server rejected our request due to an error in our request: ${(e as Error).message.split('\n')[0]}`,
    );
  }
}

/**
 * How mergePatch treats the target and the body's lists: a copy of the target, the lists copied
 * (`copy`) or taken as sent (`share`, below `status`); or, for the caller's own fresh copy of the
 * stored object (`root`, see applyPatchBody), its root and its metadata (`metadata`) changed in place.
 */
type Lists = 'copy' | 'root' | 'metadata' | 'share';

/** How the members of an object merged in `lists` mode are merged. */
function membersMode(lists: Lists, key: string): Lists {
  if (lists === 'root') return key === 'status' ? 'share' : key === 'metadata' ? 'metadata' : 'copy';
  return lists === 'metadata' ? 'copy' : lists;
}

/** RFC 7386: objects merge key by key, null deletes, anything else (arrays included) replaces. */
function mergePatch(target: unknown, patch: unknown, lists: Lists = 'copy'): unknown {
  // Scalars are values; lists are copied so the stored object never shares the client's arrays
  // (and nothing on the way to storage changes the client's) unless the caller said they may be shared.
  if (patch === null || typeof patch !== 'object') return patch;
  if (Array.isArray(patch)) return lists === 'share' ? patch : clone(patch);
  const isObject = target !== null && typeof target === 'object' && !Array.isArray(target);
  // Merged in place, the members keep their order as in a copy: the same assignments and deletions.
  const inPlace = isObject && (lists === 'root' || lists === 'metadata');
  const result: Record<string, unknown> = inPlace
    ? (target as Record<string, unknown>)
    : isObject
      ? { ...(target as Record<string, unknown>) }
      : {};
  // for-in, not Object.entries: no [key, value] pair per member of every PATCH body.
  for (const key in patch) {
    const value = (patch as Record<string, unknown>)[key];
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value, membersMode(lists, key));
  }
  return result;
}
