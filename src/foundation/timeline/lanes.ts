import { requestsOf } from './causality';
import { COMPONENTS, type Component, type TimelineEvent } from './event';

/** One lane of the diagram: a component, or one pod's share of a component's lane. */
export interface Lane {
  readonly component: Component;
  /** The pod this lane is for, when the component's lane is split per pod. */
  readonly pod?: string;
}

/** Up to this many pods get lanes of their own; beyond (a served mass deletion), one lane per component stays readable. */
export const MAX_POD_LANES = 6;

/** The pod an event is about, from its text (`… pods/web …`). */
export function podOf(text: string): string | undefined {
  return /(?<![\w/])pods\/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)/.exec(text)?.[1];
}

/**
 * The lanes of a diagram, derived from its events (no list of components: a component added to
 * the simulation gets its lane): one per component, in the order of COMPONENTS (any component
 * not listed there after them), and where several pods take part, one lane per pod for each
 * component whose events act on one pod each — every component but those that carry requests
 * (their events have a request id) and their storage and watch echoes (folded into a request):
 * those serve every pod at once — as long as at most MAX_POD_LANES pods take part (`podLanes`:
 * false, one lane per component; 'all', a lane per pod however many). A split component keeps a lane of its own for its events that
 * name no pod (e.g. `kubelet started on node node-1`) only if it has such events.
 */
export function diagramLanes(
  events: readonly TimelineEvent[],
  extra: Iterable<Component> = [],
  podLanes: boolean | 'all' = true,
): { lanes: Lane[]; laneOf: (e: TimelineEvent) => number; laneOfComponent: (c: Component) => number } {
  const echoes = requestsOf(events);
  const shared = new Set<Component>();
  const pods = new Map<Component, string[]>();
  const unnamed = new Set<Component>();
  for (const e of events) {
    if (e.requestId !== undefined || echoes.has(e.seq)) shared.add(e.component);
    const pod = podOf(e.text);
    if (pod === undefined) unnamed.add(e.component);
    else {
      const list = pods.get(e.component) ?? [];
      if (!list.includes(pod)) list.push(pod);
      pods.set(e.component, list);
    }
  }
  const used = new Set<Component>([...events.map((e) => e.component), ...extra]);
  const rank = (c: Component) => (COMPONENTS.includes(c) ? COMPONENTS.indexOf(c) : COMPONENTS.length);
  const components = [...used].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const lanes: Lane[] = [];
  const index = new Map<string, number>();
  for (const c of components) {
    const named = pods.get(c) ?? [];
    const split =
      podLanes !== false && !shared.has(c) && named.length > 1 && (podLanes === 'all' || named.length <= MAX_POD_LANES);
    if (!split || unnamed.has(c) || named.length === 0) {
      index.set(c, lanes.length);
      lanes.push({ component: c });
    }
    if (split) {
      for (const pod of [...named].sort()) {
        index.set(`${c} ${pod}`, lanes.length);
        lanes.push({ component: c, pod });
      }
    }
  }
  const laneOfComponent = (c: Component): number => index.get(c) ?? lanes.findIndex((l) => l.component === c);
  const laneOf = (e: TimelineEvent): number => {
    const pod = podOf(e.text);
    return (pod !== undefined ? index.get(`${e.component} ${pod}`) : undefined) ?? laneOfComponent(e.component);
  };
  return { lanes, laneOf, laneOfComponent };
}
