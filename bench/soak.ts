/**
 * The soak figures of `npm run bench` (issue 22): a `serve` session that creates and deletes
 * 20 000 objects (pods, which the kubelets run, and custom resources of a CRD the soak creates) through the HTTP API in ten
 * rounds, one etcd compaction interval after each (src/frontends/serve/soak.ts). Printed as one JSON line
 * for bench/run.ts: the heap after the first and the last round (after a full GC), what the
 * session keeps then, and requests per second.
 */
import { soak } from '../src/frontends/serve/soak';

void soak({ rounds: 10, perRound: 2000 }).then(({ rounds, requestsPerSecond }) => {
  const first = rounds[0];
  const last = rounds[rounds.length - 1];
  const mb = (b: number) => Math.round((b / 1024 / 1024) * 10) / 10;
  console.log(
    JSON.stringify({
      objects: last.objects,
      podsRan: last.podsRan,
      heapAfterFirstMB: mb(first.heapBytes),
      heapAfterLastMB: mb(last.heapBytes),
      historyAfterFirst: first.history,
      historyAfterLast: last.history,
      requestsPerSecond: Math.round(requestsPerSecond),
    }),
  );
});
