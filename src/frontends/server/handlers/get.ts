import type { KubeObject } from '../../../apimachinery/object';
import type { ScalableResource } from '../../../apiserver/scale';
import { partialObjectMetadata, toTable } from '../table';
import {
  customPrinter,
  negotiateFor,
  query,
  GET_CONVERSIONS,
  served,
  unwrap,
  writeObject,
  type RequestScope,
} from './scope';

/**
 * handlers/get.go GetResource: one object, as JSON/YAML or converted (server-side printing as a
 * Table, or PartialObjectMetadata). The `status` subresource of a pod reads the whole pod.
 */
export function getResource(scope: RequestScope): void {
  const media = negotiateFor(scope, GET_CONVERSIONS);
  const { object } = unwrap(scope.api.get(scope.resource.storage, scope.info.namespace, scope.info.name));
  const obj = object as KubeObject;
  let out: unknown = served(scope, obj);
  if (media.as?.kind === 'Table') {
    out = toTable(scope.resource.storage, [obj], {
      now: scope.cluster.clock.now(),
      release: scope.api.options.release,
      includeObject: query(scope, 'includeObject'),
      served: (o) => served(scope, o),
      ...customPrinter(scope),
    });
  } else if (media.as?.kind === 'PartialObjectMetadata') {
    out = partialObjectMetadata(obj);
  }
  writeObject(scope.res, 200, media, out);
}

/** ScaleREST.Get: the autoscaling/v1 Scale of a scalable resource. */
export function getScale(scope: RequestScope): void {
  const media = negotiateFor(scope, GET_CONVERSIONS);
  writeObject(
    scope.res,
    200,
    media,
    unwrap(scope.api.getScale(scope.resource.storage as ScalableResource, scope.info.namespace, scope.info.name))
      .object,
  );
}
