import type { SubresourceRest } from '../../../apiserver/resources';
import { createEviction } from './eviction';
import { getResource, getScale } from './get';
import { patchResource, patchScale } from './patch';
import type { RequestScope } from './scope';
import { podExec, podLog } from './streams';
import { updateResource, updateScale } from './update';

type SubresourceHandler = (scope: RequestScope) => void | Promise<void>;

/**
 * The handlers of each subresource's REST storage, by verb: endpoints/installer.go
 * registerResourceHandlers installs, for every subresource storage a kind declares (its
 * `subresources`, kinds/), a route for each verb that storage implements (rest.Getter, Updater,
 * Patcher, NamedCreater, Connecter). A status or finalize write is the object's own verb handler
 * through the subresource's strategy; Scale, Eviction, Log and Exec have handlers of their own.
 */
export const SUBRESOURCE_HANDLERS: Readonly<
  Record<SubresourceRest, Readonly<Partial<Record<string, SubresourceHandler>>>>
> = {
  // StatusREST.Get reads the whole object.
  StatusREST: {
    get: getResource,
    update: (scope) => updateResource(scope, 'status'),
    patch: (scope) => patchResource(scope, 'status'),
  },
  FinalizeREST: { update: (scope) => updateResource(scope, 'finalize') },
  ScaleREST: { get: getScale, update: updateScale, patch: patchScale },
  EvictionREST: { create: createEviction },
  // LogREST and ExecREST answer whichever of their verbs was asked (R97).
  LogREST: { get: podLog },
  ExecREST: { create: podExec, get: podExec },
};
