import type { KubeObject } from '../../../apimachinery/object';
import { labelSelectorAsSelector } from '../../../apimachinery/selectors';
import type { ValidatingAdmissionPolicyBinding } from '../../../apimachinery/types';
import { celNamespaceObject } from '../../cel/admission';
import type { AdmissionRequestInfo } from '../../webhook/dispatcher';
import type { ParamKind, ParamResource, PolicySource } from './policy-source';

/** A binding's paramRef (the same field in ValidatingAdmissionPolicyBinding and MutatingAdmissionPolicyBinding). */
type ParamRef = NonNullable<ValidatingAdmissionPolicyBinding['spec']>['paramRef'];

/**
 * The request's namespace as admission.Attributes GetNamespace gives it: that of a namespaced
 * object; for a Namespace, the name in the request path (requestinfo.go: none for a CREATE, which
 * posts to /api/v1/namespaces); else none.
 */
export function requestNamespace(info: AdmissionRequestInfo): string {
  const a = info.attributes;
  if (a.group === '' && a.kind === 'Namespace') return a.operation === 'CREATE' ? '' : a.name;
  return a.namespace ?? '';
}

/**
 * CEL's `namespaceObject` (policy_matcher.go GetNamespace of the request's namespace): the
 * Namespace a namespaced request is in, null for a cluster-scoped one and for a Namespace itself.
 */
export function namespaceObject(
  info: AdmissionRequestInfo,
  source: Pick<PolicySource<unknown, unknown>, 'namespace'>,
): unknown {
  const a = info.attributes;
  const name = a.kind === 'Namespace' && a.group === '' ? '' : (a.namespace ?? '');
  return name ? celNamespaceObject(source.namespace(name) as never) : null;
}

/**
 * generic/policy_dispatcher.go CollectParams: the params one binding evaluates its policy with.
 * No paramKind, or no paramRef: once with params null. A namespaced param kind is looked up in
 * paramRef.namespace, else the request's namespace (none for a cluster-scoped request: an error);
 * a cluster-scoped one refuses a namespace. By name, the one object (none when it is missing); by
 * selector, every matching one, each evaluated in turn. None found with parameterNotFoundAction
 * Deny is an error; with Allow the binding is skipped. An error is a string.
 */
export function collectParams(
  paramKind: ParamKind,
  resource: ParamResource | undefined,
  binding: { readonly spec?: { readonly paramRef?: ParamRef } },
  namespace: string,
): readonly unknown[] | string {
  const ref = binding.spec?.paramRef;
  if (paramKind === undefined || ref === undefined || resource === undefined) return [null];
  let paramsNamespace: string | undefined;
  if (resource.namespaced) {
    paramsNamespace = ref.namespace || namespace;
    if (!paramsNamespace)
      return 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources';
  } else if (ref.namespace) return 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`';
  let found: readonly KubeObject[];
  if (ref.name) {
    if (ref.selector !== undefined) return 'paramRef.name and paramRef.selector are mutually exclusive';
    found = resource.list(paramsNamespace).filter((o) => o.metadata.name === ref.name);
  } else if (ref.selector !== undefined) {
    const selector = labelSelectorAsSelector(ref.selector as never);
    found = resource.list(paramsNamespace).filter((o) => selector.matches(o.metadata.labels ?? {}));
  } else return 'one of name or selector must be provided';
  if (found.length === 0 && ref.parameterNotFoundAction === 'Deny')
    return 'no params found for policy binding with `Deny` parameterNotFoundAction';
  // wrappedParam: a built-in object's TypeMeta is filled in from the paramKind, so CEL sees apiVersion and kind.
  return found.map((o) => ({ apiVersion: paramKind.apiVersion, kind: paramKind.kind, ...o }));
}
