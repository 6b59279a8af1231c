import type { ListOptions } from '../../../apiserver/list-options';
import type { KubeObject } from '../../../apimachinery/object';
import { encodedItems, encodedMessages, encodedPartialMetadata, listItem } from '../caching-object';
import { writeJsonList, writeProtobufList } from '../list-encoding';
import { contentTypeOf } from '../negotiation';
import { hasProtobuf, PROTOBUF, protobufListFrame } from '../protobuf';
import { groupVersionString } from '../../../apiserver/resources';
import { encodedTableRow, partialObjectMetadata, toTable } from '../table';
import {
  customPrinter,
  negotiateFor,
  query,
  LIST_CONVERSIONS,
  served,
  unwrap,
  writeObject,
  type RequestScope,
} from './scope';

/** The list options of the query string (metav1.ListOptions). */
export function listOptionsOf(scope: RequestScope): ListOptions {
  return {
    labelSelector: query(scope, 'labelSelector'),
    fieldSelector: query(scope, 'fieldSelector'),
    resourceVersion: query(scope, 'resourceVersion'),
    resourceVersionMatch: query(scope, 'resourceVersionMatch'),
    limit: query(scope, 'limit'),
    continue: query(scope, 'continue'),
  };
}

/**
 * handlers/get.go ListResource: a page of objects with the list's resourceVersion (and continue
 * token), as a `<Kind>List` whose items carry no apiVersion/kind (as upstream encodes typed
 * lists), as a Table, or as PartialObjectMetadataList. A JSON list is written from its items'
 * cached encodings and streamed (list-encoding.ts); a protobuf list from its items' cached messages.
 */
export function listResource(scope: RequestScope): void | Promise<void> {
  const media = negotiateFor(scope, LIST_CONVERSIONS);
  const { object: page } = unwrap(
    scope.api.listPage(scope.resource.storage, scope.info.namespace, listOptionsOf(scope)),
  );
  const items = page.items as KubeObject[];
  const metadata: Record<string, unknown> = { resourceVersion: page.resourceVersion };
  if (page.continue !== undefined) metadata.continue = page.continue;
  if (page.remainingItemCount !== undefined) metadata.remainingItemCount = page.remainingItemCount;
  let out: unknown;
  if (media.as?.kind === 'Table') {
    const includeObject = query(scope, 'includeObject');
    const options = {
      now: scope.cluster.clock.now(),
      release: scope.api.options.release,
      ...metadata,
      includeObject,
      served: (o: KubeObject) => served(scope, o),
      ...customPrinter(scope),
    };
    // What kubectl get asks for: rows with each object's metadata, written from its cached encoding.
    if (media.type === 'application/json' && (includeObject === undefined || includeObject === 'Metadata')) {
      const storage = scope.resource.storage;
      return writeJsonList(
        scope.res,
        200,
        contentTypeOf(media),
        toTable(storage, [], options),
        items.map((o) => encodedTableRow(storage, o, encodedPartialMetadata(o), options)),
        'rows',
      );
    }
    out = toTable(scope.resource.storage, items, options);
  } else if (media.as?.kind === 'PartialObjectMetadataList') {
    out = {
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata,
      items: items.map(partialObjectMetadata),
    };
  } else {
    const r = scope.resource;
    const list = { kind: `${r.kind}List`, apiVersion: groupVersionString(r.group, r.version), metadata };
    if (media.type === 'application/json')
      return writeJsonList(scope.res, 200, contentTypeOf(media), list, encodedItems(r, items));
    // A kind with no message (descriptors not regenerated for it) is answered in JSON, which protobuf clients also take.
    if (media.type === PROTOBUF && hasProtobuf(list.apiVersion, list.kind)) {
      const messages = encodedMessages(r, items);
      return writeProtobufList(scope.res, PROTOBUF, protobufListFrame(list, messages), messages);
    }
    out = { ...list, items: items.map((o) => listItem(r, o)) };
  }
  writeObject(scope.res, 200, media, out);
}
