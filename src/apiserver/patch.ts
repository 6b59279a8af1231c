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
   * The lists under `status` may be taken from the body as they are: the caller knows nothing on
   * the way to storage changes them in place (a status update without admission or managed
   * fields), and storage's encoder copies every list it keeps, so nothing stored shares them.
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
 * How mergePatch treats the body's lists: copies them (`copy`), or takes them as sent (`share`,
 * below `status` when the object's root is `root` and the caller allows it).
 */
type Lists = 'copy' | 'root' | 'share';

/** RFC 7386: objects merge key by key, null deletes, anything else (arrays included) replaces. */
function mergePatch(target: unknown, patch: unknown, lists: Lists = 'copy'): unknown {
  // Scalars are values; lists are copied so the stored object never shares the client's arrays
  // (and nothing on the way to storage changes the client's) unless the caller said they may be shared.
  if (patch === null || typeof patch !== 'object') return patch;
  if (Array.isArray(patch)) return lists === 'share' ? patch : clone(patch);
  const result: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  // for-in, not Object.entries: no [key, value] pair per member of every PATCH body.
  for (const key in patch) {
    const value = (patch as Record<string, unknown>)[key];
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value, lists === 'root' ? (key === 'status' ? 'share' : 'copy') : lists);
  }
  return result;
}
