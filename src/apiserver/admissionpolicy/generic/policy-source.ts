import type { KubeObject } from '../../../apimachinery/object';
import type { Labels } from '../../../apimachinery/selectors';
import type { Namespace, ValidatingAdmissionPolicySpec } from '../../../apimachinery/types';
import { parseGroupVersion } from '../../validatingadmissionpolicy/strategy';

/**
 * A policy with the bindings that name it (generic/policy_source.go PolicyHook), shared by the
 * validating and the mutating policy plugins.
 */
export interface PolicyHook<P, B> {
  readonly policy: P;
  readonly bindings: readonly B[];
}

/** Where a policy plugin reads its policies and namespaces (the policy source's informers). */
export interface PolicySource<P, B> {
  /** Policies in name order, each with its bindings in name order; bindings of a policy that does not exist are left out. */
  hooks(): readonly PolicyHook<P, B>[];
  namespace(name: string): Namespace | undefined;
  namespaceLabels(name: string): Labels;
  /** The served resource of a paramKind (the policy source's REST mapping), or undefined when nothing serves that kind. */
  paramResource(apiVersion: string, kind: string): ParamResource | undefined;
}

/** The objects of a param kind (the param informer's lister): cluster-scoped, or listed by namespace. */
export interface ParamResource {
  readonly namespaced: boolean;
  list(namespace: string | undefined): readonly KubeObject[];
}

export type ParamKind = ValidatingAdmissionPolicySpec['paramKind'];

/**
 * policy_source.go ensureParamsForPolicyLocked: the resource of a policy's paramKind (none without
 * one), or, when nothing serves that kind, the hook's ConfigurationError (the
 * schema.GroupVersionKind as %v prints it), which the dispatcher reports for the whole policy.
 */
export function hookParams(
  paramKind: ParamKind,
  source: Pick<PolicySource<unknown, unknown>, 'paramResource'>,
): { readonly resource: ParamResource | undefined } | { readonly error: string } {
  if (paramKind === undefined) return { resource: undefined };
  const resource = source.paramResource(paramKind.apiVersion ?? '', paramKind.kind ?? '');
  if (resource !== undefined) return { resource };
  const gv = parseGroupVersion(paramKind.apiVersion ?? '');
  const gvk =
    typeof gv === 'string' ? `/, Kind=${paramKind.kind}` : `${gv.group}/${gv.version}, Kind=${paramKind.kind}`;
  return { error: `failed to configure policy: failed to find resource referenced by paramKind: '${gvk}'` };
}
