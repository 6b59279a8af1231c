import type { FieldError } from '../../apimachinery/errors';
import type { KubeObject } from '../../apimachinery/object';
import type { Clock } from '../../foundation/clock';
import type { Release } from '../../foundation/release';
import type { Etcd } from '../etcd';
import { Store } from '../store';
import { builtinKinds } from '.';
import type { KindContext, KindStrategies } from './kind';

/**
 * Each built-in kind's REST storage, as pkg/controlplane's RESTStorageProviders build it from the
 * registry's NewREST functions: a Store over the kind's main strategy on the one etcd, with the
 * kind's validation and defaulting (its `rules`, kind-rules/) plugged in, and the strategies of its
 * subresources, by resource.
 */
export function assembleStorage(
  etcd: Etcd,
  clock: Clock,
  release: Release,
  validateName: (resource: string, name: string) => FieldError[],
): { stores: Record<string, Store<KubeObject>>; strategies: Record<string, KindStrategies<KubeObject>> } {
  const ctx: KindContext = { release, now: () => clock.now(), validateName };
  const stores: Record<string, Store<KubeObject>> = {};
  const strategies: Record<string, KindStrategies<KubeObject>> = {};
  for (const kind of builtinKinds()) {
    // A kind its release does not serve has no storage: every request for it is a 404.
    if (kind.served?.(release) === false) continue;
    const kindStrategies = kind.strategies(ctx);
    const store = new Store<KubeObject>(etcd, clock, kindStrategies.main, true, release);
    store.useKindRules(kind.rules, release);
    // The scheme's defaulter of the kind (its SetDefaults_ functions), as the request decoder and
    // the mutating admission plugins apply it (R203).
    const { rules, schemeDefaults } = kind;
    if (rules?.defaults || schemeDefaults)
      store.useDefaulter((obj) => {
        rules?.defaults?.(obj, release);
        schemeDefaults?.(obj, release);
      });
    stores[kind.resource] = store;
    strategies[kind.resource] = kindStrategies;
  }
  return { stores, strategies };
}
