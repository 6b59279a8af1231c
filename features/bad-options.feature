@bad-options
Feature: Invalid DeleteOptions and missing pods
  The apiserver validates DeleteOptions before it looks at storage: an unknown propagationPolicy,
  orphanDependents together with propagationPolicy, or a dryRun value other than "All" is
  422 Invalid, even for a pod that does not exist. gracePeriodSeconds is never rejected: a
  negative value is read as 1. Deleting a pod that does not exist is 404 NotFound, which kubectl
  reports as "Error from server (NotFound)" unless told to --ignore-not-found.

  Background:
    Given a node "node-1"
    And a pod "web" running on node "node-1"

  Scenario: an unknown propagationPolicy is 422 Invalid
    # ValidateDeleteOptions (R2): only Foreground, Background and Orphan.
    When the user deletes pod "web" with options:
      """
      propagationPolicy: Sideways
      """
    Then the last request fails with 422 Invalid saying 'propagationPolicy: Unsupported value: "Sideways"'
    And the last request changed pod "web" like this:
      | path | from | to |
    And no etcd event "PUT /registry/pods/default/web" happens

  Scenario: orphanDependents together with propagationPolicy is 422 Invalid
    # R2: the deprecated field and its replacement cannot both be set.
    When the user deletes pod "web" with options:
      """
      orphanDependents: true
      propagationPolicy: Background
      """
    Then the last request fails with 422 Invalid saying "orphanDependents and deletionPropagation cannot be both set"
    And pod "web" exists
    And no etcd event "PUT /registry/pods/default/web" happens

  Scenario: a dryRun value other than All is 422 Invalid
    # ValidateDryRun (R2).
    When the user deletes pod "web" with options:
      """
      dryRun: [Some]
      """
    Then the last request fails with 422 Invalid saying 'dryRun: Unsupported value: ["Some"]'
    And pod "web" exists
    And no etcd event "PUT /registry/pods/default/web" happens

  Scenario: deleting a pod that does not exist is 404 NotFound
    # Store.Delete reads the pod first (R4).
    When the user deletes pod "nope"
    Then the last request fails with 404 NotFound saying 'pods "nope" not found'
    And these events happen in order:
      | at   | component | event            |
      | T+0s | apiserver | DELETE pods/nope |

  Scenario: invalid options win over a missing pod
    # R2: current handlers validate before storage is touched, so 422, not 404.
    When the user deletes pod "nope" with options:
      """
      propagationPolicy: Sideways
      """
    Then the last request fails with 422 Invalid

  @real-kubectl-differential
  Scenario: kubectl on a missing pod fails with the server's NotFound
    When I try to run `kubectl delete pod nope`
    Then kubectl fails with 'Error from server (NotFound): pods "nope" not found'
    And the last request fails with 404 NotFound

  @real-kubectl-differential
  Scenario: kubectl --ignore-not-found turns that NotFound into success
    When I run `kubectl delete pod nope --ignore-not-found`
    Then the last request fails with 404 NotFound

  @real-kubectl-differential
  Scenario: kubectl refuses an unknown --cascade value before sending anything
    When I try to run `kubectl delete pod web --cascade=sideways`
    Then kubectl fails with 'error: invalid cascade value (sideways). Must be "background", "foreground", or "orphan"'
    And no apiserver event "DELETE pods/web" happens

  Scenario: a negative grace period is not rejected: it becomes 1 second
    # rest.BeforeDelete (R5, since v1.22): gracePeriodSeconds is never validated.
    When the user deletes pod "web" with options:
      """
      gracePeriodSeconds: -5
      """
    Then the last request returns 200
    And the last request changed pod "web" like this:
      | path                                 | from     | to   |
      | /metadata/deletionTimestamp          | <absent> | T+1s |
      | /metadata/deletionGracePeriodSeconds | <absent> | 1    |
      | /metadata/generation                 | 1        | 2    |

  Scenario: a string gracePeriodSeconds is 400 BadRequest from v1.35, and nothing is deleted
    # V7: the DELETE handler decodes the body before the registry sees it (kubernetes#133358).
    When the user deletes pod "web" with options:
      """
      gracePeriodSeconds: "30"
      """
    Then the last request fails with 400 BadRequest saying "json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64"
    And pod "web" exists
    And no apiserver event "DELETE pods/web" happens
    And no etcd event "PUT /registry/pods/default/web" happens

  Scenario: up to v1.34 the same body is a bare 500
    # V7: the decoder's error reached the response writer unwrapped (no reason).
    Given Kubernetes v1.34
    When the user deletes pod "web" with options:
      """
      gracePeriodSeconds: "30"
      """
    Then the last request returns 500
    And pod "web" exists
    And no etcd event "PUT /registry/pods/default/web" happens
