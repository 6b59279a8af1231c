import type { ApiServer } from '../../apiserver/apiserver';
import type { EndpointSlice } from '../../apimachinery/types';
import { LABEL_SERVICE_NAME } from '../../helpers/well-known';

/**
 * The last service key built, shared by every node's cache: a slice write reaches the proxies of
 * all nodes one after the other, and each would otherwise build (and hash, in its maps) a fresh
 * `namespace/name` string for the same service.
 */
const lastKey: { namespace: string | undefined; name: string; key: string } = { namespace: '', name: '', key: '/' };

/** `namespace/name`: the same string object as last time when the service is the same. */
function serviceKey(namespace: string | undefined, name: string): string {
  if (namespace !== lastKey.namespace || name !== lastKey.name) {
    lastKey.namespace = namespace;
    lastKey.name = name;
    lastKey.key = `${namespace}/${name}`;
  }
  return lastKey.key;
}

/**
 * pkg/proxy/endpointslicecache.go: a proxy's EndpointSlices by service, from its own list and
 * watch (no generic informer: every node's proxy sees every slice write, so the per-event work is
 * one map update and a note of which service changed).
 */
export class EndpointSliceCache {
  private readonly byService = new Map<string, Map<string, EndpointSlice>>();

  constructor(
    private readonly api: ApiServer,
    /** Called with the service key of every slice that was added, changed or deleted. */
    private readonly changed: (svcKey: string) => void,
  ) {}

  start(): void {
    const list = this.api.list('endpointslices', undefined);
    if (!list.ok) throw new Error(`the EndpointSlice cache cannot list: ${list.status.message}`);
    for (const s of list.object.items) this.apply(s, false);
    this.api.watch('endpointslices', undefined, { resourceVersion: list.object.resourceVersion }, (e) =>
      this.apply(e.object, e.type === 'DELETED'),
    );
  }

  private apply(slice: EndpointSlice, deleted: boolean): void {
    const name = slice.metadata.labels?.[LABEL_SERVICE_NAME];
    if (!name) return;
    const svcKey = serviceKey(slice.metadata.namespace, name);
    let slices = this.byService.get(svcKey);
    if (!slices) this.byService.set(svcKey, (slices = new Map()));
    if (deleted) slices.delete(slice.metadata.name!);
    else slices.set(slice.metadata.name!, slice);
    this.changed(svcKey);
  }

  /** The service's slices, in name order. */
  slicesOf(svcKey: string): EndpointSlice[] {
    const slices = this.byService.get(svcKey);
    if (!slices) return [];
    return slices.size === 1
      ? [...slices.values()]
      : [...slices.values()].sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
  }
}
