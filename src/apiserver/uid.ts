import { hash } from 'node:crypto';

/**
 * A UUID-shaped uid derived from the object's identity and a creation counter, so that every run
 * gives the same uids (upstream uses random UUIDs from k8s.io/apimachinery/pkg/util/uuid).
 */
export function deterministicUid(resource: string, namespace: string | undefined, name: string, counter: number): string {
  // crypto.hash: the one-shot form, without a Hash object per uid (every create asks for one).
  const h = hash('sha1', `${resource}/${namespace ?? ''}/${name}#${counter}`, 'hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
