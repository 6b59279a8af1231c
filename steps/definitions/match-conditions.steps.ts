import { Given } from '@cucumber/cucumber';
import { planValidatingWebhook, operation } from './admission.steps';
import { ScenarioError, type TerminatingWorld } from '../support/world';

/**
 * The webhook of `a validating webhook that rejects {word} of pods with {string}`, with one
 * matchCondition (R208) `not-USER`: `request.userInfo.username != 'USER'`. Requests of that
 * user skip the webhook (an `admission` event says so: `webhook pod-policy.example.com skipped
 * UPDATE pods/web: matchCondition "not-USER" is false`); everyone else's are denied. In
 * scenarios the user is `user`, `controller` (`a controller removes finalizer …`), or a kubelet
 * (`system:node:NODE`). Needs a release with matchConditions (1.28 on).
 */
Given(
  'a validating webhook that rejects {word} of pods with {string} except from {string}',
  function (this: TerminatingWorld, op: string, message: string, user: string) {
    if (user === '' || /['\\]/.test(user))
      throw new ScenarioError(
        `the user a webhook's matchCondition lets past is a user name without quotes or backslashes, not ${JSON.stringify(user)}`,
      );
    const name = `not-${user.replace(/[^A-Za-z0-9_.-]/g, '-')}`.replace(/[^A-Za-z0-9]+$/, '');
    planValidatingWebhook(this, [operation(op)], { rejects: message }, 'Fail', [
      { name, expression: `request.userInfo.username != '${user}'` },
    ]);
  },
);
