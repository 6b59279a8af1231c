import type { FieldError } from '../../apimachinery/errors';
import type { EndpointSlice, Pod } from '../../apimachinery/types';
import type { KindRules } from './index';
import { setContainerPortDefaults, validatePodSpecRules } from './pod-spec';

/** pkg/apis/discovery/validation ValidateEndpointSlice: addressType is required and one of IPv4, IPv6, FQDN. */
function validateEndpointSlice(slice: EndpointSlice): FieldError[] {
  const type = (slice as { addressType?: string }).addressType;
  if (type === undefined || type === '') return [{ field: 'addressType', type: 'Required value', detail: '' }];
  if (!['IPv4', 'IPv6', 'FQDN'].includes(type))
    return [
      {
        field: 'addressType',
        type: 'Unsupported value',
        value: type,
        detail: 'supported values: "FQDN", "IPv4", "IPv6"',
      },
    ];
  return [];
}

export const CORE_RULES: Readonly<Record<string, KindRules<never>>> = {
  Pod: {
    defaults: (pod: Pod) => setContainerPortDefaults(pod.spec),
    validate: (pod: Pod) => validatePodSpecRules(pod.spec, 'spec'),
  } as KindRules<Pod> as KindRules<never>,
  EndpointSlice: { validate: validateEndpointSlice } as KindRules<EndpointSlice> as KindRules<never>,
};
