import type { Printer } from '../printers/printer';
import { POLICY_KINDS, WEBHOOK_KINDS } from './admissionregistration';
import { APIEXTENSIONS_KINDS } from './apiextensions';
import { APPS_KINDS } from './apps';
import { BATCH_KINDS } from './batch';
import { CORE_KINDS } from './core';
import type { BuiltinKind } from './kind';
import { endpointSlices, ingresses, leases, podDisruptionBudgets } from './other-groups';
import { STORAGE_KINDS } from './storage';

export type { BuiltinKind } from './kind';

/**
 * The kind registry: every built-in kind the apiserver stores and serves, each declared once in
 * its group's module (core.ts, apps.ts, …), in the order discovery lists them (kube-apiserver's
 * group priority: the core group, apps, batch, admissionregistration, …). A new kind is one more
 * entry in its group's list.
 */
export const BUILTIN_KINDS = [
  ...CORE_KINDS,
  ...APPS_KINDS,
  ...BATCH_KINDS,
  ...WEBHOOK_KINDS,
  ...APIEXTENSIONS_KINDS,
  ...POLICY_KINDS,
  ingresses,
  podDisruptionBudgets,
  ...STORAGE_KINDS,
  endpointSlices,
  leases,
] as const;

type AnyBuiltinKind = (typeof BUILTIN_KINDS)[number];
/** The plural of every built-in kind. */
export type BuiltinResource = AnyBuiltinKind['resource'];
/** The object type of each built-in resource. */
export type BuiltinResourceType = {
  [K in AnyBuiltinKind as K['resource']]: K extends BuiltinKind<infer T, string> ? T : never;
};

const BY_RESOURCE: ReadonlyMap<string, BuiltinKind> = new Map(
  (BUILTIN_KINDS as readonly BuiltinKind[]).map((k) => [k.resource, k]),
);

/** The built-in kind of a resource (its plural), or undefined (a custom resource, or nothing served). */
export function builtinKind(resource: string): BuiltinKind | undefined {
  return BY_RESOURCE.get(resource);
}

/** The Table printer of a built-in resource, if its kind has one. */
export function printerOf(resource: string): Printer | undefined {
  return BY_RESOURCE.get(resource)?.printer;
}

/** Every built-in kind, as the generic BuiltinKind. */
export function builtinKinds(): readonly BuiltinKind[] {
  return BUILTIN_KINDS;
}
