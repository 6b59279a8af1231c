/** Helpers for this library's tests: the usual shape of a CR schema and of a custom resource. */
import type { JSONSchemaProps } from './types';

/** A CR schema whose spec is an object with the given properties (and whatever else spec should hold). */
export function withSpec(
  properties: Record<string, JSONSchemaProps>,
  spec: Partial<JSONSchemaProps> = {},
): JSONSchemaProps {
  return { type: 'object', properties: { spec: { type: 'object', properties, ...spec } } };
}

/** A custom resource of kind Widget with the given spec. */
export const cr = (spec: unknown): Record<string, unknown> => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w' },
  spec,
});
