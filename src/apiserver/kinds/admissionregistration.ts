import type {
  MutatingAdmissionPolicy,
  MutatingAdmissionPolicyBinding,
  MutatingWebhookConfiguration,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingWebhookConfiguration,
} from '../../apimachinery/types';
import {
  mutatingAdmissionPolicyPrinter,
  mutatingWebhookConfigurationPrinter,
  validatingAdmissionPolicyBindingPrinter,
  validatingAdmissionPolicyPrinter,
  validatingWebhookConfigurationPrinter,
} from '../printers/admissionregistration';
import {
  validatingAdmissionPolicyBindingStrategy,
  validatingAdmissionPolicyStrategy,
} from '../validatingadmissionpolicy/strategy';
import {
  mutatingAdmissionPolicyBindingStrategy,
  mutatingAdmissionPolicyServed,
  mutatingAdmissionPolicyStrategy,
} from '../mutatingadmissionpolicy/strategy';
import { webhookConfigurationStrategy } from '../webhook/configuration';
import { ALL_VERBS, type BuiltinKind } from './kind';

/**
 * admissionregistration.k8s.io/v1: pkg/registry/admissionregistration/<kind>/storage, all
 * cluster-scoped, category api-extensions. Their writes refresh the admission plugins' view of
 * them (the configuration managers' informers).
 */
const admissionregistration = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  namespaced: false,
  verbs: ALL_VERBS,
  categories: ['api-extensions'],
  subresources: {},
} as const;

export const mutatingWebhookConfigurations: BuiltinKind<MutatingWebhookConfiguration, 'mutatingwebhookconfigurations'> =
  {
    ...admissionregistration,
    kind: 'MutatingWebhookConfiguration',
    resource: 'mutatingwebhookconfigurations',
    singularName: 'mutatingwebhookconfiguration',
    strategies: ({ release }) => ({
      main: webhookConfigurationStrategy('MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', release),
    }),
    admissionConfiguration: 'mutating-webhooks',
    printer: mutatingWebhookConfigurationPrinter,
    openapi: 'V1MutatingWebhookConfiguration',
    protobuf: 'k8s.io.api.admissionregistration.v1.MutatingWebhookConfiguration',
  };

export const validatingWebhookConfigurations: BuiltinKind<
  ValidatingWebhookConfiguration,
  'validatingwebhookconfigurations'
> = {
  ...admissionregistration,
  kind: 'ValidatingWebhookConfiguration',
  resource: 'validatingwebhookconfigurations',
  singularName: 'validatingwebhookconfiguration',
  strategies: ({ release }) => ({
    main: webhookConfigurationStrategy('ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', release),
  }),
  admissionConfiguration: 'validating-webhooks',
  printer: validatingWebhookConfigurationPrinter,
  openapi: 'V1ValidatingWebhookConfiguration',
  protobuf: 'k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration',
};

// R209 — the policy's status subresource is not served.
export const validatingAdmissionPolicies: BuiltinKind<ValidatingAdmissionPolicy, 'validatingadmissionpolicies'> = {
  ...admissionregistration,
  kind: 'ValidatingAdmissionPolicy',
  resource: 'validatingadmissionpolicies',
  singularName: 'validatingadmissionpolicy',
  strategies: ({ release }) => ({ main: validatingAdmissionPolicyStrategy(release) }),
  admissionConfiguration: 'policies',
  printer: validatingAdmissionPolicyPrinter,
  openapi: 'V1ValidatingAdmissionPolicy',
  protobuf: 'k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicy',
};

export const validatingAdmissionPolicyBindings: BuiltinKind<
  ValidatingAdmissionPolicyBinding,
  'validatingadmissionpolicybindings'
> = {
  ...admissionregistration,
  kind: 'ValidatingAdmissionPolicyBinding',
  resource: 'validatingadmissionpolicybindings',
  singularName: 'validatingadmissionpolicybinding',
  strategies: ({ release, validateName }) => ({
    main: validatingAdmissionPolicyBindingStrategy(release, (n) => validateName('validatingadmissionpolicies', n)),
  }),
  admissionConfiguration: 'policies',
  printer: validatingAdmissionPolicyBindingPrinter,
  openapi: 'V1ValidatingAdmissionPolicyBinding',
  protobuf: 'k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding',
};

// R317 — MutatingAdmissionPolicy (GA in 1.36): stored, validated and applied (the admission
// chain's MutatingAdmissionPolicy plugin) from v1.36; before, not served (no storage, not in
// discovery: every request is a 404).
export const mutatingAdmissionPolicies: BuiltinKind<MutatingAdmissionPolicy, 'mutatingadmissionpolicies'> = {
  ...admissionregistration,
  kind: 'MutatingAdmissionPolicy',
  resource: 'mutatingadmissionpolicies',
  singularName: 'mutatingadmissionpolicy',
  strategies: ({ release }) => ({ main: mutatingAdmissionPolicyStrategy(release) }),
  served: mutatingAdmissionPolicyServed,
  admissionConfiguration: 'policies',
  printer: mutatingAdmissionPolicyPrinter,
  // Newer than the client-node models: built from k8s.io/api v0.36 types.go (schemas.ts).
  openapi: 'io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicy',
};

export const mutatingAdmissionPolicyBindings: BuiltinKind<
  MutatingAdmissionPolicyBinding,
  'mutatingadmissionpolicybindings'
> = {
  ...admissionregistration,
  kind: 'MutatingAdmissionPolicyBinding',
  resource: 'mutatingadmissionpolicybindings',
  singularName: 'mutatingadmissionpolicybinding',
  strategies: ({ validateName }) => ({
    main: mutatingAdmissionPolicyBindingStrategy((n) => validateName('mutatingadmissionpolicies', n)),
  }),
  served: mutatingAdmissionPolicyServed,
  admissionConfiguration: 'policies',
  // printMutatingAdmissionPolicyBinding: the same columns and cells as a ValidatingAdmissionPolicyBinding's.
  printer: validatingAdmissionPolicyBindingPrinter,
  openapi: 'io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicyBinding',
};

export const WEBHOOK_KINDS = [mutatingWebhookConfigurations, validatingWebhookConfigurations] as const;
export const POLICY_KINDS = [
  validatingAdmissionPolicies,
  validatingAdmissionPolicyBindings,
  mutatingAdmissionPolicies,
  mutatingAdmissionPolicyBindings,
] as const;
