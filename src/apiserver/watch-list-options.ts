import { type FieldError, invalid } from '../apimachinery/errors';
import type { Release } from '../foundation/release';

/** The streaming-list options of a watch request, decoded from its query. */
export interface WatchListQuery {
  /** Undefined when the query has no sendInitialEvents. */
  sendInitialEvents?: boolean;
  resourceVersionMatch?: string;
  continue?: string;
}

/**
 * R318 — a watch's streaming-list options checked as kube-apiserver checks them
 * (apimachinery pkg/apis/meta/internalversion/validation ValidateListOptions → validateWatchOptions,
 * whose second argument is the release's WatchList gate, staging/src/k8s.io/apiserver pkg/features):
 * every cause together in one 422 `ListOptions.meta.k8s.io "" is invalid`. The HTTP watch handler
 * and the built-in kubectl's streaming list (client-go's WatchListClient) both ask here, so a
 * server without the gate refuses both alike and the client falls back to LIST then WATCH.
 */
export function validateWatchListOptions(q: WatchListQuery, release: Release): void {
  const causes: FieldError[] = [];
  const match = q.resourceVersionMatch || undefined;
  if (q.sendInitialEvents !== undefined) {
    if (match !== 'NotOlderThan')
      causes.push({
        field: 'resourceVersionMatch',
        type: 'Forbidden',
        detail: 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      });
    if (!release.enabled('WatchList'))
      causes.push({
        field: 'sendInitialEvents',
        type: 'Forbidden',
        detail: 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
      });
  }
  if (match !== undefined) {
    if (q.sendInitialEvents === undefined)
      causes.push({
        field: 'resourceVersionMatch',
        type: 'Forbidden',
        detail: 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      });
    if (match !== 'NotOlderThan')
      causes.push({
        field: 'resourceVersionMatch',
        type: 'Unsupported value',
        value: match,
        detail: 'supported values: "NotOlderThan"',
      });
    if (q.continue)
      causes.push({
        field: 'resourceVersionMatch',
        type: 'Forbidden',
        detail: 'resourceVersionMatch is forbidden when continue is provided',
      });
  }
  if (causes.length > 0) throw invalid('ListOptions.meta.k8s.io', '', causes);
}
