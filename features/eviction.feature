@eviction
Feature: Evicting a pod through the eviction API
  `kubectl drain`, the descheduler and other tools do not DELETE a pod: they POST an Eviction to
  its pods/eviction subresource (R78). The apiserver would first check the PodDisruptionBudget that
  selects the pod — none are modelled, so every eviction is allowed —, then writes a
  DisruptionTarget condition (reason EvictionByEvictionAPI) to the pod's status and deletes it as
  a DELETE with the eviction's options would. From there the kubelet sees an ordinary graceful
  deletion, and the condition stays on the pod to its end: it tells an eviction from a plain delete.

  Scenario: one request writes the condition, then stamps the pod as a DELETE does
    # addConditionAndDeletePod: a status update (the status strategy) with DisruptionTarget, then
    # Store.Delete with no options: the pod's own grace period, 30s (R6).
    Given a node "node-1"
    And a pod "web" running on node "node-1"
    When the user evicts pod "web"
    Then the last request returns 201
    And pod "web" is terminating
    And pod "web" has condition "DisruptionTarget" with status "True" and reason "EvictionByEvictionAPI"
    And pod "web" has fields:
      | path                                 | value |
      | /metadata/deletionTimestamp          | T+30s |
      | /metadata/deletionGracePeriodSeconds | 30    |
    And these events happen in exactly this order:
      | at   | component | event                          |
      | T+0s | apiserver | CREATE pods/web/eviction       |
      | T+0s | etcd      | PUT /registry/pods/default/web |
      | T+0s | etcd      | PUT /registry/pods/default/web |

  Scenario: then the kubelet terminates the pod as after any DELETE, and the condition goes with it
    Given a node "node-1"
    And a pod "web" running on node "node-1"
    When the user evicts pod "web"
    And the cluster settles
    Then pod "web" is gone
    And pod "web" was removed with condition "DisruptionTarget" with status "True" and reason "EvictionByEvictionAPI"
    And these events happen in order:
      | at   | component | event                                                   |
      | T+0s | apiserver | CREATE pods/web/eviction                                |
      | T+0s | kubelet   | DELETE pods/web                                         |
      | T+0s | runtime   | SIGTERM app                                             |
      | T+1s | apiserver | DELETE pods/web gracePeriodSeconds=0 preconditions.uid= |

  Scenario Outline: with PodDisruptionConditions off (possible up to v1.30) an eviction only deletes (<release>)
    # The gate is beta, on by default, from v1.26 and locked on from v1.31 (GA).
    Given Kubernetes <release>
    And the feature gate "PodDisruptionConditions" is disabled
    And a node "node-1"
    And a pod "api" running on node "node-1"
    When the user evicts pod "api"
    Then the last request returns 201
    And pod "api" is terminating
    And pod "api" has no condition "DisruptionTarget"

    Examples:
      | release |
      | v1.26   |
      | v1.30   |

  Scenario: evicting a pod that does not exist is 404, and nothing is written
    Given a node "node-1"
    And a pod "web" running on node "node-1"
    When the user evicts pod "nope"
    Then the last request fails with 404 NotFound saying 'pods "nope" not found'
    And pod "web" has no condition "DisruptionTarget"
