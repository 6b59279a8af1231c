import { Before, BeforeStep } from '@cucumber/cucumber';
import type { ApiResponse } from '../../src/apiserver/apiserver';
import { ScenarioError, type TerminatingWorld } from './world';

/**
 * A step that acts on a pod the scenario never declared and that does not exist (a typo: `When
 * the user deletes pod "wbe"`) fails naming it, unless the scenario checks that answer in its next
 * step (`Then the last request fails with 404 NotFound …`): deleting or evicting a pod that does
 * not exist on purpose is a scenario of its own (R4).
 */

/** The steps of each running scenario, to look at the step after the current one. */
const scenarioSteps = new WeakMap<TerminatingWorld, { ids: string[]; texts: string[]; current: number }>();

Before(function (this: TerminatingWorld, { pickle }) {
  scenarioSteps.set(this, { ids: pickle.steps.map((s) => s.id), texts: pickle.steps.map((s) => s.text), current: -1 });
});

BeforeStep(function (this: TerminatingWorld, { pickleStep }) {
  const steps = scenarioSteps.get(this);
  if (steps) steps.current = steps.ids.indexOf(pickleStep.id);
});

/** Whether the step after the current one reads the last request's answer. */
function nextStepReadsTheAnswer(world: TerminatingWorld): boolean {
  const steps = scenarioSteps.get(world);
  const next = steps ? steps.texts[steps.current + 1] : undefined;
  return next !== undefined && next.startsWith('the last request');
}

/** Fails the step when `response` is a 404 for a pod the scenario never declared and nothing created, and no next step reads it. */
export function refuseUndeclaredPod(world: TerminatingWorld, pod: string, response: ApiResponse<unknown>): void {
  if (
    response.ok ||
    response.code !== 404 ||
    world.plan.podNamespace(pod) !== undefined ||
    nextStepReadsTheAnswer(world)
  )
    return;
  const declared = world.podNames();
  throw new ScenarioError(
    `pod "${pod}" was never declared; pods so far: ${declared.length > 0 ? declared.join(', ') : 'none'} (the request was answered 404 NotFound: to act on a pod that does not exist on purpose, check the answer in the next step with  Then the last request fails with 404 NotFound)`,
  );
}
