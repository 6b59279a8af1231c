import { hash } from 'node:crypto';

/**
 * A UUID-shaped uid derived from the object's identity and a creation counter, so that every run
 * gives the same uids (upstream uses random UUIDs from k8s.io/apimachinery/pkg/util/uuid).
 */
export function deterministicUid(
  resource: string,
  namespace: string | undefined,
  name: string,
  counter: number,
): string {
  // crypto.hash: the one-shot form, without a Hash object per uid (every create asks for one).
  const h = hash('sha1', `${resource}/${namespace ?? ''}/${name}#${counter}`, 'hex');
  // 8-4-4-4-12 hex digits, version 4 and variant 8 set. One replace builds the uid as one flat
  // string; a concatenation of nine pieces would stay a tree of them, and a uid is kept (and used
  // as a map key) for the whole run.
  return h.replace(UUID_LAYOUT, '$1-$2-4$3-8$4-$5');
}

/** The 40 hex digits of a SHA-1 cut into a UUID's groups (the digits where version and variant go are dropped, the last 8 unused). */
const UUID_LAYOUT = /^(.{8})(.{4}).(.{3}).(.{3})(.{12}).*$/;
