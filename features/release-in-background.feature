@versions
Feature: The release may be named after a Background's nodes and pods
  A suite's Background declares the cluster; each scenario may then say which release it runs.
  `Given Kubernetes v1.NN` applies to the whole setup, Background included, as long as the
  scenario's time has not started (T+0, the first When or Then step): until then the nodes and
  pods are only planned, and the cluster is built with the release the plan has at T+0.

  Background:
    Given a node "node-1"
    And a pod "web" running on node "node-1"

  Scenario Outline: the Background's pod is created by the scenario's release (<release>)
    # V2: pods carry metadata.generation since v1.33 (KEP-5067, kubernetes#130181): a v1.32
    # apiserver stores the Background's pod without one, so its first DELETE adds none.
    Given Kubernetes <release>
    When the user deletes pod "web"
    Then pod "web" has fields:
      | path                        | value   |
      | /metadata/deletionTimestamp | T+30s   |
      | /metadata/generation        | <after> |

    Examples:
      | release | after    |
      | v1.32   | <absent> |
      | v1.33   | 2        |

  Scenario: a skewed kubelet declared after the Background is checked against the scenario's release
    Given Kubernetes v1.30
    And the kubelet on node "node-1" runs Kubernetes v1.28
    When 1s passes
    Then pod "web" has phase "Running"
