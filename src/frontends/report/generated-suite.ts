import type { Component, TimelineEvent } from '../../foundation/timeline/event';
import type { ScenarioReport } from './model';
import { toScenarioTimeline } from './scenario-timeline';

/**
 * A suite of `n` scenarios for the load-time check, each with a timeline of a graceful deletion's
 * size (about 70 events, the writes with their field changes) and a table, in 25 features.
 */
export function generatedScenarios(n: number): ScenarioReport[] {
  const t0 = Date.UTC(2025, 0, 1, 0, 1);
  return Array.from({ length: n }, (_, k): ScenarioReport => {
    const pod = `web-${k}`;
    const events: TimelineEvent[] = [];
    const add = (s: number, component: Component, text: string, extra: Partial<TimelineEvent> = {}) =>
      events.push({
        seq: events.length + 1,
        at: t0 + s * 1000,
        component,
        text,
        source: 'pkg/kubelet/x.go F',
        ...extra,
      });
    for (let r = 0; r < 10; r++) {
      add(r * 3, 'apiserver', `PATCH pods/${pod}/status`, {
        requestId: r + 1,
        actor: 'kubelet/node-1',
        outcome: '200',
      });
      add(r * 3, 'etcd', `PUT /registry/pods/default/${pod} rev=${r + 10}`, {
        patch: [
          { op: 'replace', path: '/status/conditions/1/lastTransitionTime', value: '2025-01-01T00:01:30Z' },
          { op: 'replace', path: '/status/phase', value: 'Running' },
        ],
      });
      add(r * 3, 'watch', `MODIFIED pods/${pod} rv=${r + 10}`);
      add(r * 3, 'kubelet', `UPDATE pods/${pod}`, { actor: 'node-1' });
      add(r * 3 + 1, 'runtime', `SIGTERM app pods/${pod}`, { actor: 'node-1' });
      add(r * 3 + 1, 'runtime', `exited app code=143 pods/${pod}`, { actor: 'node-1' });
      add(r * 3 + 2, 'status', `resources reclaimed pods/${pod}`, { actor: 'node-1' });
    }
    const rows = [
      ['at', 'component', 'event'],
      ...Array.from({ length: 6 }, (_, r) => [`T+${r}s`, 'runtime', 'SIGTERM app']),
    ];
    return {
      location: `features/f${k % 25}.feature:${k + 3}`,
      uri: `features/f${k % 25}.feature`,
      line: k + 3,
      feature: `Feature ${k % 25}`,
      name: `scenario ${k}`,
      status: k % 50 === 0 ? 'failed' : 'passed',
      tags: [`@t${k % 7}`],
      steps: [
        { keyword: 'When', text: 'I run `kubectl delete pod web`', status: 'passed' },
        { keyword: 'Then', text: 'these events happen in order:', status: 'passed', dataTable: rows },
      ],
      timeline: toScenarioTimeline(events, t0, { rows: [], expected: [] }, 'kind: Pod\n'),
    };
  }).sort((a, b) => (a.uri === b.uri ? a.line - b.line : a.uri < b.uri ? -1 : 1));
}
