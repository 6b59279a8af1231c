import type { Node } from '../apimachinery/types';
import { genericStrategy } from './generic-strategy';
import type { Strategy } from './strategy';

/**
 * R321 — pkg/registry/core/node/strategy.go: a Node's main resource and its status subresource
 * (NewREST's StatusREST, `nodes/status`). Create takes every field, status included (the kubelet
 * registers its node with its status); an update through the main resource keeps the stored status
 * (nodeStrategy.PrepareForUpdate), one through `nodes/status` keeps the stored spec
 * (nodeStatusStrategy.PrepareForUpdate), so `kubectl patch node --subresource=status` changes the
 * status only and a spec patch never touches the conditions. Both validate as ValidateNodeUpdate.
 * R346 — neither PrepareForCreate nor PrepareForUpdate of node/strategy.go sets metadata.generation,
 * and the generic registry's BeforeCreate sets none either, so a Node has no generation: a cordon
 * or a taint does not count one up.
 */
export function nodeStrategies(): { main: Strategy<Node>; status: Strategy<Node> } {
  const base = genericStrategy<Node>({
    kind: 'Node',
    apiVersion: 'v1',
    resource: 'nodes',
    etcdPrefix: 'minions',
    namespaced: false,
    generation: false,
  });
  const main: Strategy<Node> = {
    ...base,
    prepareForUpdate(next, old) {
      next.status = old.status;
      base.prepareForUpdate(next, old);
    },
  };
  const status: Strategy<Node> = {
    ...base,
    prepareForUpdate(next, old) {
      next.spec = old.spec;
      next.metadata.generation = old.metadata.generation;
    },
  };
  return { main, status };
}
