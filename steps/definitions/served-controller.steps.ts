import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { After, Given } from '@cucumber/cucumber';
import { CONTROLLER_STEP_TIMEOUT_MS } from '../../src/frontends/serve/controller-limits';
import { ScenarioError, type TerminatingWorld } from '../support/world';

/**
 * Runs a controller program of your own against the scenario's cluster (issue 33 item 5): the
 * cluster is served over HTTP, and `node PROGRAM` (a path from the project's directory) starts
 * with a kubeconfig for it (KUBECONFIG). The scenario's time starts here (T+0), so this comes
 * after the other Given steps; from then on `When … pass` moves virtual time only while the
 * program is quiet, one instant at a time. Its requests show on the lane of its User-Agent, and
 * `Given the client "NAME" sees … late` perturbs it. The program is killed when the scenario ends.
 */
Given(
  'the controller started by {string} runs against the cluster',
  { timeout: CONTROLLER_STEP_TIMEOUT_MS },
  async function (this: TerminatingWorld, program: string) {
    if (this.controllerProcess) throw new ScenarioError('one controller program per scenario');
    const path = resolve(program);
    if (!existsSync(path)) throw new ScenarioError(`no program at ${program} (paths are from ${process.cwd()})`);
    this.ensureStarted();
    // Loaded on first use: the HTTP API and protobufjs take a few hundred ms of CPU to load, and
    // most runs start no program.
    const { ControllerProcess } = await import('../../src/frontends/serve/controller-process');
    this.controllerProcess = await ControllerProcess.start(this.cluster, path, process.cwd());
  },
);

After(async function (this: TerminatingWorld) {
  const running = this.controllerProcess;
  this.controllerProcess = undefined;
  await running?.stop();
});
