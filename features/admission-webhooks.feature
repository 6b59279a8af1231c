@webhooks
Feature: Admission webhooks can keep a pod Terminating
  A validating webhook judges every request its rules match, the updates that remove a finalizer
  included: Store.Update calls validating admission on the fully formed object before it checks
  whether the update empties the finalizers of an object being deleted. A webhook that rejects
  UPDATE of pods therefore keeps a terminating pod with a finalizer in the API for ever: the
  kubelet has killed its containers and its final DELETE succeeded, but the controller's update
  that removes the finalizer is denied. Deleting the webhook configuration releases it. A webhook
  that cannot be called fails the requests it matches under failurePolicy Fail (the default),
  and lets them on under Ignore.

  Background:
    Given a node "node-1"
    And a pod "web" running on node "node-1" with:
      """
      metadata:
        finalizers: [example.com/hold]
      """

  Scenario: a webhook denies the finalizer removal; deleting its configuration releases the pod
    # R203: validating admission judges the update that empties the finalizers; R204: the denial's text.
    Given a validating webhook that rejects UPDATE of pods with "pods of this namespace are frozen"
    When the user deletes pod "web"
    And 1m passes
    And a controller removes finalizer "example.com/hold" from pod "web"
    Then the last request fails with 403 Forbidden saying "admission webhook \"pod-policy.example.com\" denied the request: pods of this namespace are frozen"
    And pod "web" is terminating
    And these events happen in order:
      | component | event                                                                                    |
      | admission | webhook pod-policy.example.com denied UPDATE pods/web: pods of this namespace are frozen |
    When the user deletes validating webhook configuration "pod-policy"
    And a controller removes finalizer "example.com/hold" from pod "web"
    Then pod "web" is gone

  Scenario: a webhook that rejects DELETE: kubectl delete prints its denial and the pod keeps running
    Given a validating webhook that rejects DELETE of pods with "pods here are deleted by the platform team"
    When I try to run `kubectl delete pod web`
    Then kubectl fails with "Error from server (Forbidden): admission webhook \"pod-policy.example.com\" denied the request: pods here are deleted by the platform team"
    And pod "web" has phase "Running"

  Scenario: a mutating webhook puts the finalizer back: the removal succeeds and changes nothing
    # R205: the webhook's JSONPatch re-adds the finalizer the update removed; the object is then
    # unchanged (R53: no write), the controller gets 200, and the pod stays Terminating.
    Given a mutating webhook that adds finalizer "example.com/hold" to pods
    When the user deletes pod "web"
    And 1m passes
    And a controller removes finalizer "example.com/hold" from pod "web"
    Then the last request returns 200
    And pod "web" is terminating
    And these events happen in order:
      | component | event                                                                    |
      | admission | webhook finalizer-injector.example.com patched UPDATE pods/web: 1 operation |
    When the user deletes mutating webhook configuration "finalizer-injector"
    And a controller removes finalizer "example.com/hold" from pod "web"
    Then pod "web" is gone

  Scenario: a webhook that is down blocks the update under failurePolicy Fail
    Given a validating webhook that is down
    When the user deletes pod "web"
    And 1m passes
    And a controller removes finalizer "example.com/hold" from pod "web"
    Then the last request fails with 500 InternalError saying "Internal error occurred: failed calling webhook \"pod-policy.example.com\": failed to call webhook: Post \"https://pod-policy.default.svc:443/validate?timeout=10s\": no endpoints available for service \"pod-policy\""
    And pod "web" is terminating

  Scenario: a webhook that is down lets the update on under failurePolicy Ignore
    Given a validating webhook that is down with failurePolicy Ignore
    When the user deletes pod "web"
    And 1m passes
    And a controller removes finalizer "example.com/hold" from pod "web"
    Then pod "web" is gone

  Scenario: a webhook slower than its timeout fails the update
    Given a validating webhook that takes 15s
    When a controller removes finalizer "example.com/hold" from pod "web"
    Then the last request fails with 500 InternalError saying "failed to call webhook: Post \"https://pod-policy.default.svc:443/validate?timeout=10s\": context deadline exceeded"

  Scenario: a webhook quicker than its timeout allows the update
    Given a validating webhook that takes 2s
    When a controller removes finalizer "example.com/hold" from pod "web"
    Then the last request returns 200

  Scenario: a matchCondition lets the finalizer's controller past the webhook
    # R208: the webhook's matchCondition is false for the controller's requests, so it is not
    # called for them: the finalizer removal succeeds while other users' updates stay denied.
    Given a validating webhook that rejects UPDATE of pods with "pods are frozen" except from "controller"
    When the user deletes pod "web"
    And 1m passes
    And a controller removes finalizer "example.com/hold" from pod "web"
    Then the last request returns 200
    And pod "web" is gone
    And these events happen in order:
      | component | event                                                                                            |
      | admission | webhook pod-policy.example.com skipped UPDATE pods/web: matchCondition "not-controller" is false |

  Scenario: a matchCondition for another user: the controller's finalizer removal is denied
    Given a validating webhook that rejects UPDATE of pods with "pods are frozen" except from "platform-bot"
    When the user deletes pod "web"
    And 1m passes
    And a controller removes finalizer "example.com/hold" from pod "web"
    Then the last request fails with 403 Forbidden saying "admission webhook \"pod-policy.example.com\" denied the request: pods are frozen"
    And pod "web" is terminating
