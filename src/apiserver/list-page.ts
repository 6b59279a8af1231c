import type { KubeObject } from '../apimachinery/object';
import type { Etcd, StoredObject } from './etcd';
import {
  encodeContinue,
  expired,
  parseListOptions,
  selectionMatches,
  tooLargeResourceVersion,
  type ListOptions,
} from './list-options';
import type { PodNodeIndex } from './pod-node-index';
import type { ListPage } from './request-types';

const PODS = '/registry/pods/';

/**
 * A LIST with metav1.ListOptions (handlers/get.go ListResource → Store.List → cacher/etcd3
 * GetList) of the keys under `prefix`: label and field selectors, `limit`/`continue` pages in key
 * order at one revision, and the resourceVersion semantics: unset or NotOlderThan reads the
 * latest state (a version newer than the latest is a 504 "Too large resource version"), `0` reads
 * any state (the watch cache: the whole list, `limit` ignored), Exact (and continue) reads the
 * state at that revision, 410 Expired once compacted.
 */
export function readListPage<T>(
  etcd: Etcd,
  compactedRevision: () => number,
  resource: string,
  prefix: string,
  query: ListOptions,
  podsByNode?: () => PodNodeIndex,
): ListPage<T> {
  const opts = parseListOptions(resource, { metadata: {} }, query);
  const current = etcd.currentRevision;
  let revision = current;
  let startKey: string | undefined;
  if (opts.continue) {
    revision = opts.continue.rv;
    startKey = prefix + opts.continue.start;
    if (revision < compactedRevision()) {
      throw expired(
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
      );
    }
  } else if (opts.resourceVersion !== undefined && opts.resourceVersion !== '0') {
    const asked = Number(opts.resourceVersion);
    if (asked > current) throw tooLargeResourceVersion(asked, current);
    if (opts.resourceVersionMatch === 'Exact') {
      if (asked < compactedRevision()) throw expired('The resourceVersion for the provided list is too old.');
      revision = asked;
    }
  }
  const limit = opts.resourceVersion === '0' && !opts.continue ? 0 : opts.limit;
  // The watch cache answers `spec.nodeName=NODE` from its index of pods by node (pod-node-index.ts).
  const node = prefix.startsWith(PODS) ? opts.fields?.requiresExactMatch('spec.nodeName') : undefined;
  const entries =
    revision !== current
      ? stateAt(etcd, prefix, revision)
      : node !== undefined && podsByNode
        ? podsByNode().entries(node, prefix)
        : etcd.listEntries(prefix);
  const selected = entries.filter(
    ([key, obj]) =>
      (startKey === undefined || key >= startKey) && selectionMatches(resource, opts, obj as unknown as KubeObject),
  );
  const page = limit > 0 ? selected.slice(0, limit) : selected;
  const result: ListPage<T> = {
    items: page.map(([, obj]) => obj as unknown as T),
    resourceVersion: String(revision),
  };
  if (limit > 0 && selected.length > limit) {
    const [nextKey] = selected[limit];
    result.continue = encodeContinue(nextKey.slice(prefix.length), revision);
    if (!opts.labels && !opts.fields) result.remainingItemCount = selected.length - limit;
  }
  return result;
}

/**
 * The objects under `prefix` as they were just after `revision`, in key order (a past etcd range
 * read): the current range with the changes made since `revision` undone, newest first. A page
 * of a paginated LIST (continue) reads a recent revision, so this costs the keys plus the few
 * changes since, not the whole history from the start.
 */
function stateAt(etcd: Etcd, prefix: string, revision: number): [string, StoredObject][] {
  const state = new Map<string, StoredObject>(etcd.listEntries(prefix));
  let reappeared = false;
  for (let r = etcd.currentRevision; r > revision; r--) {
    const e = etcd.change(r)!;
    if (!e.key.startsWith(prefix)) continue;
    // Before a creation the key was absent; before an update or a deletion it held `prev`.
    if (e.prev === undefined) state.delete(e.key);
    else {
      reappeared ||= !state.has(e.key);
      state.set(e.key, e.prev);
    }
  }
  const entries = [...state.entries()];
  return reappeared ? entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : entries;
}
