/**
 * One scenario run many times in this process, as `terminating explore` does (hundreds of reruns,
 * each with other world parameters), where a rerun needs only its outcome. The first run goes
 * through cucumber's API (scripts/cucumber-in-process.ts): configuration, paths, Gherkin, the
 * test case's step definitions, a formatter. A rerun then hands the same test case to cucumber's
 * own Worker, as cucumber's serial runtime does (runtime/serial/adapter.js: BeforeAll hooks, each
 * test case, AfterAll hooks) — the same World, hooks, step definitions, timeouts and statuses,
 * and success as cucumber's exit code says it — without what only a report needs: the
 * configuration file read again, the feature paths globbed, the file parsed, every step matched
 * against every step definition, the formatter's summary. A one-scenario run spent about half its
 * cucumber overhead on those (measured under `--cpu-prof`, src/frontends/explore/explore.test.ts).
 */
import { EventEmitter } from 'node:events';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import type { IConfiguration } from '@cucumber/cucumber/api';
// cucumber's runtime, which its package exports for require() only (`./lib/*`).
import configuration = require('@cucumber/cucumber/lib/configuration/merge_configurations');
import builder = require('@cucumber/cucumber/lib/formatter/builder');
import runtime = require('@cucumber/cucumber/lib/runtime/worker');
import { type Envelope, type GherkinDocument, IdGenerator, type Pickle, type TestCase } from '@cucumber/messages';
import { type InProcessRun, loadedSupport, runCucumber } from './cucumber-in-process';

const ROOT = path.resolve(__dirname, '..');

/** What `--world-parameters` takes: a JSON object. */
export type WorldParameters = IConfiguration['worldParameters'];

export interface Rerunnable {
  /** The first run, as runCucumber reports it. */
  readonly run: InProcessRun;
  /** The same test cases again with these world parameters: whether they passed (cucumber's exit code 0). */
  again(worldParameters: WorldParameters): Promise<boolean>;
}

/**
 * Runs `paths` (one scenario, as FILE:LINE) with a profile of cucumber.js (`summary` unless said)
 * and `worldParameters`, keeping what a rerun needs: the test cases cucumber assembled (their
 * steps' definitions and hooks depend on the step texts and tags, not on world parameters).
 */
export async function runRerunnable(options: {
  profile?: string;
  paths: string[];
  worldParameters: WorldParameters;
}): Promise<Rerunnable> {
  const { profile = 'summary', paths, worldParameters } = options;
  const documents = new Map<string, GherkinDocument>();
  const pickles = new Map<string, Pickle>();
  const testCases: TestCase[] = [];
  const run = await runCucumber({
    profile,
    paths,
    worldParameters,
    onMessage: (e: Envelope) => {
      if (e.gherkinDocument) documents.set(e.gherkinDocument.uri ?? '', e.gherkinDocument);
      if (e.pickle) pickles.set(e.pickle.id, e.pickle);
      if (e.testCase) testCases.push(e.testCase);
    },
  });
  const assembled = testCases.map((testCase) => {
    const pickle = pickles.get(testCase.pickleId)!;
    return { gherkinDocument: documents.get(pickle.uri)!, pickle, testCase };
  });
  const { api, support } = await loadedSupport();
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  // The configuration without the world parameters: each rerun merges its own in, as loadConfiguration
  // merges the command line's into the profile's (lodash mergeWith, cucumber's customizer).
  const { useConfiguration, runConfiguration } = await api.loadConfiguration(
    { profiles: [profile], provided: { paths } },
    { cwd: ROOT, stdout: silent, stderr: silent },
  );
  const snippetBuilder = await builder.default.getStepDefinitionSnippetBuilder({
    cwd: ROOT,
    snippetInterface: runConfiguration.formats.options.snippetInterface as never,
    snippetSyntax: runConfiguration.formats.options.snippetSyntax as never,
    supportCodeLibrary: support as never,
  });
  const newId = IdGenerator.uuid();
  return {
    run,
    async again(parameters) {
      const merged = configuration.mergeConfigurations(
        { worldParameters: useConfiguration.worldParameters } as Partial<IConfiguration>,
        { worldParameters: parameters },
      );
      const worker = new runtime.Worker(
        newId(),
        undefined,
        new EventEmitter(),
        newId,
        { ...runConfiguration.runtime, worldParameters: merged.worldParameters ?? {} },
        support as never,
        snippetBuilder,
      );
      // runtime/serial/adapter.js InProcessAdapter.run, for these test cases.
      await worker.runBeforeAllHooks();
      let failing = false;
      for (const item of assembled) if (!(await worker.runTestCase(item, failing))) failing = true;
      await worker.runAfterAllHooks();
      return !failing;
    },
  };
}
