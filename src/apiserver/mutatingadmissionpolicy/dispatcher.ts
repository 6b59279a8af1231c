import { StatusError } from '../../apimachinery/errors';
import type { KubeObject } from '../../apimachinery/object';
import type { MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding } from '../../apimachinery/types';
import type { Release } from '../../foundation/release';
import type { Timeline } from '../../foundation/timeline/timeline';
import { collectParams, namespaceObject, requestNamespace } from '../admissionpolicy/generic/policy-dispatcher';
import { PolicyMatcher } from '../admissionpolicy/generic/policy-matcher';
import { hookParams, type PolicyHook, type PolicySource } from '../admissionpolicy/generic/policy-source';
import { admissionActivation, typedVariables } from '../cel/admission';
import { type CompiledExpression, compileExpression } from '../cel/compile';
import { lazyVariables } from '../cel/composition';
import { celEnvironment } from '../cel/environment';
import {
  CelJSONPatch,
  CelObject,
  compileMutationExpression,
  objectToJson,
  patchTypesEnvironment,
  typeNameMismatches,
} from '../cel/mutation';
import { decodeProblems } from '../strict-decoding';
import { admissionRequest, type AdmissionRequestInfo } from '../webhook/dispatcher';
import { internalError } from '../webhook/errors';
import { ConditionMatcher } from '../webhook/match-conditions';
import { ApplyConfigurationError, applyConfiguration, type TypeConverter } from './apply-configuration';
import { applyJsonPatch, JsonPatchError, type PatchOperation } from './json-patch';

const PLUGIN = 'staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/mutating';

/** A MutatingAdmissionPolicy with the bindings that name it, both in name order. */
export type MutatingPolicyHook = PolicyHook<MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding>;

/** Where the plugin reads its policies, namespaces, params, and the type converter of server-side apply. */
export interface MutatingPolicySource extends PolicySource<MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding> {
  typeConverter(): TypeConverter;
}

/** A policy's expressions compiled once (compilation.go compilePolicy): variables and conditions without the patch types, mutations with them. */
class CompiledPolicy {
  readonly matcher: ConditionMatcher;
  readonly variables: readonly { readonly name: string; readonly program: CompiledExpression | string }[];
  readonly mutations: readonly {
    readonly patchType: 'ApplyConfiguration' | 'JSONPatch';
    readonly program: CompiledExpression | string;
  }[];

  constructor(
    readonly policy: MutatingAdmissionPolicy,
    release: Release,
  ) {
    const spec = policy.spec ?? {};
    this.matcher = new ConditionMatcher(spec, release, spec.paramKind !== undefined);
    const decls = typedVariables(
      release.minor,
      { authorizer: true, namespaceObject: true, params: spec.paramKind !== undefined },
      spec.variables ?? [],
    );
    const env = celEnvironment(release.minor, decls);
    this.variables = (spec.variables ?? []).map((v) => {
      const r = compileExpression(env, v.expression, ['dyn']);
      return { name: v.name, program: 'error' in r ? r.error.detail : r.program };
    });
    const patchEnv = patchTypesEnvironment(release.minor, decls);
    this.mutations = (spec.mutations ?? []).map((m) => {
      const patchType = m.patchType === 'JSONPatch' ? 'JSONPatch' : 'ApplyConfiguration';
      const expression = (patchType === 'JSONPatch' ? m.jsonPatch : m.applyConfiguration)?.expression ?? '';
      const r = compileMutationExpression(
        patchEnv,
        expression,
        patchType === 'JSONPatch' ? 'list(JSONPatch)' : 'Object',
      );
      return { patchType, program: 'error' in r ? r.error.detail : r.program };
    });
  }
}

/** One failure of a policy (generic.PolicyError): its text names the policy, and the binding when there is one. */
interface PolicyError {
  readonly policy: string;
  readonly binding?: string;
  readonly message: string;
  /** Invalid for the failures of an invocation (dispatcher.go addConfigError); none for the policy's configuration. */
  readonly reason?: string;
  readonly failurePolicy: string;
}

/**
 * policyReinvokeContext (reinvocationcontext.go), kept for one request across the plugin's two
 * passes: the IfNeeded invocations that ran, those to run again, the object as the plugin last
 * left it, and whether the chain is to be run again (admission.ReinvocationContext).
 */
export class PolicyReinvocation {
  lastOutput: string | undefined;
  previouslyInvoked = new Set<string>();
  reinvoke = new Set<string>();
  shouldReinvoke = false;

  requireReinvokingPreviouslyInvoked(): void {
    for (const k of this.previouslyInvoked) this.reinvoke.add(k);
    this.previouslyInvoked.clear();
  }
}

/** One invocation: a policy, one of its bindings, one param (generic.PolicyInvocation). */
interface Invocation {
  readonly compiled: CompiledPolicy;
  readonly binding: MutatingAdmissionPolicyBinding;
  readonly param: unknown;
  readonly key: string;
}

/**
 * R317 — the MutatingAdmissionPolicy admission plugin (plugin/policy/mutating: plugin.go,
 * dispatcher.go dispatchInvocations, patch/), which runs before the mutating webhooks on CREATE
 * and UPDATE (its handler takes Create, Update and Connect; DELETE is not admitted). For each
 * matching policy, binding and param, in name order: the matchConditions, then each mutation in
 * order on the object as the mutations before it left it (an ApplyConfiguration merged as
 * server-side apply merges, a JSONPatch applied as RFC 6902). A failure (an expression that errs,
 * a patch that does not apply, a configuration error) fails the request under failurePolicy Fail
 * and is skipped under Ignore; the other mutations still run.
 */
export class MutatingPolicyAdmission {
  private readonly compiled = new WeakMap<MutatingAdmissionPolicy, CompiledPolicy>();

  constructor(
    private readonly timeline: Timeline,
    private readonly source: MutatingPolicySource,
    private readonly release: Release,
  ) {}

  has(): boolean {
    return this.source.hooks().length > 0;
  }

  /**
   * One pass of the plugin (policy_dispatcher.go Dispatch, dispatcher.go dispatchInvocations):
   * the object as the policies leave it, or the request's error. `state` carries the
   * reinvocation context; `reinvoke` is the second pass of the chain, which runs only the
   * IfNeeded invocations that a later change asked to run again.
   */
  mutate(
    info: AdmissionRequestInfo,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    state: PolicyReinvocation,
    reinvoke: boolean,
  ): KubeObject | undefined {
    if (reinvoke && state.lastOutput !== JSON.stringify(object ?? null)) state.requireReinvokingPreviouslyInvoked();
    const errors: PolicyError[] = [];
    const invocations = this.invocations(info, object, oldObject, errors);
    let current = object;
    let dirty = false;
    const nsObject = namespaceObject(info, this.source);
    for (const inv of invocations) {
      const policy = inv.compiled.policy;
      const name = policy.metadata.name ?? '';
      const bindingName = inv.binding.metadata.name ?? '';
      const failurePolicy = policy.spec?.failurePolicy ?? 'Fail';
      const fail = (message: string) => {
        errors.push({ policy: name, binding: bindingName, message, reason: 'Invalid', failurePolicy });
        this.event(info, name, bindingName, 'failed', message);
      };
      const request = admissionRequest(info, current, oldObject);
      const match = inv.compiled.matcher.match(request, current, oldObject, nsObject, inv.param);
      if ('error' in match) {
        fail(match.error);
        continue;
      }
      if (!match.matches) continue;
      if (reinvoke && !state.reinvoke.has(inv.key)) continue;
      const before = JSON.stringify(current ?? null);
      inv.compiled.mutations.forEach((mutation) => {
        // dispatcher.go: no patcher runs without an object.
        if (current === undefined) return;
        const activation = admissionActivation({
          object: current,
          oldObject,
          request: admissionRequest(info, current, oldObject),
          namespaceObject: nsObject,
          params: inv.param,
          variables: {},
        });
        activation.variables = lazyVariables(inv.compiled, activation);
        const result = this.patch(mutation.patchType, mutation.program, activation, current);
        if (typeof result === 'string') {
          fail(result);
          return;
        }
        // dispatcher.go dispatchOne: the patched object is defaulted again (GetObjectDefaulter().Default, R203).
        info.defaults?.(result);
        current = result;
        dirty = true;
      });
      if (JSON.stringify(current ?? null) !== before) {
        state.requireReinvokingPreviouslyInvoked();
        state.shouldReinvoke = true;
        this.event(info, name, bindingName, 'patched', undefined);
      }
      if (policy.spec?.reinvocationPolicy === 'IfNeeded') state.previouslyInvoked.add(inv.key);
    }
    if (dirty) {
      state.requireReinvokingPreviouslyInvoked();
      state.shouldReinvoke = true;
    }
    state.lastOutput = JSON.stringify(current ?? null);
    const failing = errors.filter((e) => e.failurePolicy !== 'Ignore');
    if (failing.length > 0) throw denial(failing, info);
    return current;
  }

  /** Dispatch's first half: the matching policies' bindings and params; configuration errors are collected. */
  private invocations(
    info: AdmissionRequestInfo,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    errors: PolicyError[],
  ): Invocation[] {
    const matcher = new PolicyMatcher(info.attributes, object, oldObject, (ns) => this.source.namespaceLabels(ns));
    const out: Invocation[] = [];
    for (const { policy, bindings } of this.source.hooks()) {
      if (!matcher.definitionMatches(policy)) continue;
      const name = policy.metadata.name ?? '';
      const failurePolicy = policy.spec?.failurePolicy ?? 'Fail';
      const paramKind = policy.spec?.paramKind;
      const params = hookParams(paramKind, this.source);
      if ('error' in params) {
        errors.push({ policy: name, message: params.error, failurePolicy });
        this.event(info, name, undefined, 'failed', params.error);
        continue;
      }
      let compiled = this.compiled.get(policy);
      if (compiled === undefined) {
        compiled = new CompiledPolicy(policy, this.release);
        this.compiled.set(policy, compiled);
      }
      for (const binding of bindings) {
        if (!matcher.bindingMatches(binding)) continue;
        const bindingName = binding.metadata.name ?? '';
        const collected = collectParams(paramKind, params.resource, binding, requestNamespace(info));
        if (typeof collected === 'string') {
          const message = `failed to configure binding: ${collected}`;
          errors.push({ policy: name, binding: bindingName, message, failurePolicy });
          this.event(info, name, bindingName, 'failed', message);
          continue;
        }
        for (const param of collected) {
          const p = param as KubeObject | null;
          // dispatcher.go keyFor: the policy, the binding and the param by namespace and name.
          const key = JSON.stringify([name, bindingName, p?.metadata?.namespace ?? '', p?.metadata?.name ?? '']);
          out.push({ compiled, binding, param, key });
        }
      }
    }
    return out;
  }

  /** patch.Patcher.Patch of one mutation: the patched object, or the error's text. */
  private patch(
    patchType: 'ApplyConfiguration' | 'JSONPatch',
    program: CompiledExpression | string,
    activation: Record<string, unknown>,
    object: KubeObject,
  ): KubeObject | string {
    if (typeof program === 'string') return program;
    const r = program.evaluate(activation);
    if ('error' in r) return r.error;
    if (patchType === 'ApplyConfiguration') {
      const value = r.value as CelObject;
      const mismatches = typeNameMismatches(value);
      if (mismatches.length > 0) return `type mismatch: ${mismatches.join('\n')}`;
      try {
        return applyConfiguration(
          this.source.typeConverter(),
          object as unknown as Record<string, unknown>,
          objectToJson(value) as Record<string, unknown>,
        ) as unknown as KubeObject;
      } catch (e) {
        if (e instanceof ApplyConfigurationError) return e.message;
        throw e;
      }
    }
    const operations: PatchOperation[] = [];
    for (const op of r.value as CelJSONPatch[]) {
      if (op.hasValue && op.value instanceof CelObject) {
        const mismatches = typeNameMismatches(op.value);
        if (mismatches.length > 0) return `type mismatch: ${mismatches.join('\n')}`;
      }
      operations.push({
        op: op.op,
        path: op.path,
        from: op.from,
        ...(op.hasValue ? { value: objectToJson(op.value) } : {}),
      });
    }
    let patched: KubeObject;
    try {
      patched = applyJsonPatch(object, operations) as KubeObject;
    } catch (e) {
      if (!(e instanceof JsonPatchError)) throw e;
      // json_patch.go: a `test` that does not hold leaves the object as it was, without an error.
      if (e.testFailed) return object;
      return `JSON Patch: ${e.message}`;
    }
    this.decodeStrictly(patched);
    return patched;
  }

  /**
   * json_patch.go: the patched JSON is decoded with the strict serializer; a field the kind does
   * not have, or a value of the wrong type, is apierrors.NewInternalError, which ends the request
   * with a 500 whatever the failurePolicy (dispatchInvocations returns a StatusError at once).
   */
  private decodeStrictly(patched: KubeObject): void {
    const apiVersion = patched.apiVersion ?? '';
    const slash = apiVersion.indexOf('/');
    const gvk = {
      group: slash < 0 ? '' : apiVersion.slice(0, slash),
      version: slash < 0 ? apiVersion : apiVersion.slice(slash + 1),
      kind: patched.kind ?? '',
    };
    const { typeError, strict } = decodeProblems(gvk, patched, this.release.minor);
    if (typeError !== undefined) throw internalError(typeError);
    if (strict.length > 0) throw internalError(`strict decoding error: ${strict.join(', ')}`);
  }

  /** `mutating policy P binding B patched|failed OP resource/name[: detail]` on the `admission` lane. */
  private event(
    info: AdmissionRequestInfo,
    policy: string,
    binding: string | undefined,
    what: 'patched' | 'failed',
    detail: string | undefined,
  ): void {
    const a = info.attributes;
    const path = `${a.resource}/${a.name}${a.subresource ? `/${a.subresource}` : ''}`;
    this.timeline.record(
      'admission',
      `mutating policy ${policy}${binding === undefined ? '' : ` binding ${binding}`} ${what} ${a.operation} ${path}${detail ? `: ${detail}` : ''}`,
      `${PLUGIN}/dispatcher.go`,
    );
  }
}

/**
 * policy_dispatcher.go Dispatch's refusal: admission.NewForbidden (403) whose message is the first
 * error's text alone (`policy 'P' with binding 'B' denied request: …`, or `policy "P" denied
 * request: …`), with that error's reason when it has one; every error a cause.
 */
function denial(errors: readonly PolicyError[], info: AdmissionRequestInfo): StatusError {
  const a = info.attributes;
  const text = (e: PolicyError) =>
    e.binding === undefined
      ? `policy ${JSON.stringify(e.policy)} denied request: ${e.message}`
      : `policy '${e.policy}' with binding '${e.binding}' denied request: ${e.message}`;
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: text(errors[0]),
    reason: errors[0].reason ?? 'Forbidden',
    details: {
      name: a.name,
      ...(a.group ? { group: a.group } : {}),
      kind: a.resource,
      causes: errors.map((e) => ({ message: text(e) })),
    },
    code: 403,
  });
}
