import { describe, it } from 'node:test';
import { expect } from 'chai';
import { TestStepResultStatus, type Envelope } from '@cucumber/messages';
import { collectScenarios } from './model';
import { toScenarioTimeline } from './scenario-timeline';

const T0 = Date.UTC(2025, 0, 1, 0, 1);
const timeline = toScenarioTimeline(
  [{ seq: 1, at: T0, component: 'apiserver', text: 'DELETE pods/web', source: 'x.go F' }],
  T0,
  { rows: [], expected: [] },
  '# no pods left in the API\n',
);

/** The messages cucumber sends for one feature with a scenario and a two-row outline; the outline's second row fails. */
function run(): Envelope[] {
  const loc = (line: number) => ({ line, column: 1 });
  const step = (id: string, line: number, keyword: string, text: string) => ({
    id,
    location: loc(line),
    keyword,
    keywordType: undefined,
    text,
  });
  const doc: Envelope = {
    gherkinDocument: {
      uri: 'features/x.feature',
      comments: [],
      feature: {
        location: loc(1),
        tags: [],
        language: 'en',
        keyword: 'Feature',
        name: 'X',
        description: '',
        children: [
          {
            scenario: {
              id: 's1',
              location: loc(3),
              tags: [],
              keyword: 'Scenario',
              name: 'plain',
              description: '',
              steps: [step('g1', 4, 'Given ', 'a node "node-1"')],
              examples: [],
            },
          },
          {
            scenario: {
              id: 's2',
              location: loc(6),
              tags: [],
              keyword: 'Scenario Outline',
              name: 'on <v>',
              description: '',
              steps: [step('g2', 7, 'When ', 'it runs on <v>')],
              examples: [
                {
                  id: 'e',
                  location: loc(8),
                  tags: [],
                  keyword: 'Examples',
                  name: '',
                  description: '',
                  tableBody: [
                    { id: 'r1', location: loc(10), cells: [] },
                    { id: 'r2', location: loc(11), cells: [] },
                  ],
                },
              ],
            },
          },
        ],
      },
    } as unknown as NonNullable<Envelope['gherkinDocument']>,
  };
  const pickle = (id: string, name: string, ast: string[], stepAst: string, text: string): Envelope => ({
    pickle: {
      id,
      uri: 'features/x.feature',
      name,
      language: 'en',
      tags: [],
      astNodeIds: ast,
      steps: [{ id: `${id}-step`, text, astNodeIds: [stepAst] }],
    },
  });
  const testCase = (id: string, pickleId: string): Envelope =>
    ({
      testCase: {
        id,
        pickleId,
        testRunStartedId: 'run',
        testSteps: [
          { id: `${id}-1`, pickleStepId: `${pickleId}-step` },
          { id: `${id}-hook`, hookId: 'after' },
        ],
      },
    }) as Envelope;
  const finished = (started: string, stepId: string, status: TestStepResultStatus, message?: string): Envelope => ({
    testStepFinished: {
      testCaseStartedId: started,
      testStepId: stepId,
      testStepResult: { status, message, duration: { seconds: 0, nanos: 0 } },
      timestamp: { seconds: 0, nanos: 0 },
    },
  });
  const started = (id: string, testCaseId: string): Envelope => ({
    testCaseStarted: { id, testCaseId, attempt: 0, timestamp: { seconds: 0, nanos: 0 } },
  });
  const attach = (started: string): Envelope =>
    ({
      attachment: {
        testCaseStartedId: started,
        testStepId: 'hook',
        body: JSON.stringify(timeline),
        mediaType: 'application/json',
        fileName: 'timeline.json',
        contentEncoding: 'IDENTITY',
      },
    }) as Envelope;
  return [
    doc,
    pickle('p3', 'on 1.34', ['s2', 'r2'], 'g2', 'it runs on 1.34'),
    pickle('p1', 'plain', ['s1'], 'g1', 'a node "node-1"'),
    pickle('p2', 'on 1.33', ['s2', 'r1'], 'g2', 'it runs on 1.33'),
    testCase('c1', 'p1'),
    testCase('c2', 'p2'),
    testCase('c3', 'p3'),
    started('a1', 'c1'),
    finished('a1', 'c1-1', TestStepResultStatus.PASSED),
    finished('a1', 'c1-hook', TestStepResultStatus.PASSED),
    attach('a1'),
    started('a2', 'c2'),
    finished('a2', 'c2-1', TestStepResultStatus.PASSED),
    finished('a2', 'c2-hook', TestStepResultStatus.PASSED),
    attach('a2'),
    started('a3', 'c3'),
    finished('a3', 'c3-1', TestStepResultStatus.FAILED, 'row 2 | runtime | SIGKILL app | found no matching event'),
    finished('a3', 'c3-hook', TestStepResultStatus.PASSED),
    attach('a3'),
  ];
}

describe('collectScenarios', () => {
  const scenarios = collectScenarios(run());
  it('lists scenarios in line order, an outline row by its Examples line', () => {
    expect(scenarios.map((s) => [s.location, s.name, s.outlineLine])).to.deep.equal([
      ['features/x.feature:3', 'plain', undefined],
      ['features/x.feature:10', 'on 1.33', 6],
      ['features/x.feature:11', 'on 1.34', 6],
    ]);
  });
  it('gives each step its keyword, status and error, and the scenario its worst status', () => {
    expect(scenarios[0]!.steps).to.deep.equal([
      { keyword: 'Given', text: 'a node "node-1"', status: 'passed', error: undefined },
    ]);
    expect(scenarios[2]!.status).to.equal('failed');
    expect(scenarios[2]!.steps[0]!.error).to.contain('found no matching event');
    expect(scenarios.map((s) => s.feature)).to.deep.equal(['X', 'X', 'X']);
  });
  it("reads each scenario's timeline.json attachment", () => {
    expect(scenarios[1]!.timeline).to.deep.equal(JSON.parse(JSON.stringify(timeline)));
    expect(timeline.t0).to.equal('2025-01-01T00:01:00Z');
    expect(timeline.events[0]).to.include({ at: 'T+0s', ms: 0 });
  });
});
