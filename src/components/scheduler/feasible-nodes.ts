import type { Rejection } from './filters';

/** schedule_one.go minFeasibleNodesToFind: at least this many nodes are searched for (all of a smaller cluster). */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** schedule_one.go minFeasibleNodesPercentageToFind: the adaptive percentage never goes below this. */
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/**
 * numFeasibleNodesToFind (pkg/scheduler/schedule_one.go) with the default configuration
 * (percentageOfNodesToScore unset, 0: adaptive): how many feasible nodes the search stops at. All
 * nodes of a cluster under 100; else 50 % less one point per 125 nodes, at least 5 %, and never
 * fewer than 100 nodes — 100 of 101 to 199 nodes, 420 of 1 000, 500 of 5 000, 750 of 15 000.
 * Integer arithmetic as upstream's int32.
 */
export function numFeasibleNodesToFind(numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  const percentage = Math.max(50 - Math.trunc(numAllNodes / 125), MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND);
  const numNodes = Math.trunc((numAllNodes * percentage) / 100);
  return Math.max(numNodes, MIN_FEASIBLE_NODES_TO_FIND);
}

export interface FilterSearch<N> {
  /** The nodes found feasible, in the order they were checked (at most numFeasibleNodesToFind). */
  readonly feasible: N[];
  /** The rejections of the nodes checked and found unfit (the Diagnosis' NodeToStatus). */
  readonly rejections: Rejection[];
  /** Where the next search starts (sched.nextStartNodeIndex after this one). */
  readonly nextStart: number;
}

/**
 * findNodesThatPassFilters and the index update of findNodesThatFitPod (schedule_one.go): the
 * nodes are checked from `start` on, wrapping around, until numFeasibleNodesToFind of them
 * passed. Upstream checks them with 16 goroutines and cancels the search when one more node than
 * wanted passes; this is that search with one worker, so it is deterministic: the node that
 * passes beyond the number wanted ends it and is not kept, and every node rejected before it
 * counts. The next search starts after the nodes processed (feasible plus rejected), so every
 * node gets its turn across pods; when every node is processed (a cluster under 100 nodes, or a
 * pod that fits nowhere) the start stays where it was.
 */
export function findNodesThatPassFilters<N>(
  nodes: readonly N[],
  start: number,
  filter: (node: N) => Rejection | undefined,
): FilterSearch<N> {
  const n = nodes.length;
  const numNodesToFind = numFeasibleNodesToFind(n);
  const feasible: N[] = [];
  const rejections: Rejection[] = [];
  for (let i = 0; i < n; i++) {
    const node = nodes[(start + i) % n];
    const rejected = filter(node);
    if (rejected) rejections.push(rejected);
    else if (feasible.length === numNodesToFind) break;
    else feasible.push(node);
  }
  return { feasible, rejections, nextStart: n === 0 ? 0 : (start + feasible.length + rejections.length) % n };
}
