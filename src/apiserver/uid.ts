import { createHash } from 'node:crypto';

/**
 * A UUID-shaped uid derived from the object's identity and a creation counter, so that every run
 * gives the same uids (upstream uses random UUIDs from k8s.io/apimachinery/pkg/util/uuid).
 */
export function deterministicUid(resource: string, namespace: string | undefined, name: string, counter: number): string {
  const h = createHash('sha1').update(`${resource}/${namespace ?? ''}/${name}#${counter}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
