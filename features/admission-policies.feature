@admission-policies
Feature: A ValidatingAdmissionPolicy can keep a pod Terminating
  A ValidatingAdmissionPolicy is admission without a webhook server: CEL validations that
  kube-apiserver evaluates itself, before the validating webhooks, on every request its
  matchConstraints and its bindings match. Like a webhook, it judges the update that removes a
  pod's last finalizer: a policy that requires the finalizer keeps a terminating pod in the API
  for ever, the controller's update denied with the policy's text. Deleting the binding
  releases it.

  Background:
    Given a node "node-1"
    And a pod "web" running on node "node-1" with:
      """
      metadata:
        finalizers: [example.com/hold]
      """

  Scenario: a policy that requires the finalizer denies its removal; deleting the binding releases the pod
    # R210: the validation is false for the update that empties the finalizers; Deny fails it.
    Given a validating admission policy on UPDATE of pods that requires "'example.com/hold' in object.metadata.?finalizers.orValue([])"
    When the user deletes pod "web"
    And 1m passes
    And a controller removes finalizer "example.com/hold" from pod "web"
    Then the last request fails with 422 Invalid saying "pods \"web\" is forbidden: ValidatingAdmissionPolicy 'pod-policy' with binding 'pod-policy' denied request: failed expression: 'example.com/hold' in object.metadata.?finalizers.orValue([])"
    And pod "web" is terminating
    And these events happen in order:
      | component | event                                                                                                                      |
      | admission | policy pod-policy binding pod-policy denied UPDATE pods/web: failed expression: 'example.com/hold' in object.metadata.?finalizers.orValue([]) |
    When the user deletes validating admission policy binding "pod-policy"
    And a controller removes finalizer "example.com/hold" from pod "web"
    Then pod "web" is gone

  Scenario: a policy that lets the controller's user through: the finalizer removal passes
    Given a validating admission policy on UPDATE of pods that requires "request.userInfo.username == 'controller' || 'example.com/hold' in object.metadata.?finalizers.orValue([])"
    When the user deletes pod "web"
    And 1m passes
    And a controller removes finalizer "example.com/hold" from pod "web"
    Then the last request returns 200
    And pod "web" is gone
