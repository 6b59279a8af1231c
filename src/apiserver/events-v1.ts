import type { KubeObject } from '../apimachinery/object';

type Fields = KubeObject & Record<string, unknown>;

/** Copies the defined fields `from` → `to` under new names. */
function rename(src: Record<string, unknown>, pairs: readonly (readonly [string, string])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [from, to] of pairs) if (src[from] !== undefined) out[to] = src[from];
  return out;
}

/** core/v1 field → events.k8s.io/v1 field (pkg/apis/events/v1/conversion.go Convert_core_Event_To_v1_Event). */
const CORE_TO_V1: readonly (readonly [string, string])[] = [
  ['eventTime', 'eventTime'],
  ['series', 'series'],
  ['reportingComponent', 'reportingController'],
  ['reportingInstance', 'reportingInstance'],
  ['action', 'action'],
  ['reason', 'reason'],
  ['involvedObject', 'regarding'],
  ['related', 'related'],
  ['message', 'note'],
  ['type', 'type'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
];

/**
 * The events.k8s.io/v1 view of a stored core/v1 Event: the same object under the newer field
 * names (regarding, note, reportingController, deprecated* for the old counters).
 */
export function eventToEventsV1(obj: KubeObject): KubeObject {
  const o = obj as Fields;
  return { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: o.metadata, ...rename(o, CORE_TO_V1) };
}

/** The stored core/v1 form of an events.k8s.io/v1 Event (Convert_v1_Event_To_core_Event). */
export function eventFromEventsV1(obj: KubeObject): KubeObject {
  const o = obj as Fields;
  const back = CORE_TO_V1.map(([core, v1]) => [v1, core] as const);
  return { apiVersion: 'v1', kind: 'Event', metadata: o.metadata, ...rename(o, back) };
}
