@versions
Feature: The same deletion on each Kubernetes release (1.26 – 1.35)
  `Given Kubernetes v1.NN` runs every component (kube-apiserver, kube-controller-manager, the
  kubelets, kubectl) as that release; a whole suite can be run as one release with
  `--world-parameters '{"kubernetes":"1.30"}'`. Each outline below runs one scenario per release
  and shows, row beside row, what changed between them and where (rule ids V* in
  docs/rules/versions.md).

  Scenario Outline: kubectl's delete line names the namespace from kubectl v1.34 (<release>)
    # staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go PrintObj; #126619 (v1.34).
    Given Kubernetes <release>
    And a node "node-1"
    And a pod "web" running on node "node-1"
    When I run `kubectl delete pod web --wait=false`
    Then kubectl prints '<printed>'

    Examples:
      | release | printed                                  |
      | v1.26   | pod "web" deleted                        |
      | v1.33   | pod "web" deleted                        |

    # Not under -p real-kubectl: the pinned real kubectl is v1.33, which prints the old line.
    @built-in-kubectl-only
    Examples:
      | release | printed                                  |
      | v1.34   | pod "web" deleted from default namespace |
      | v1.35   | pod "web" deleted from default namespace |

  Scenario Outline: the node monitor grace period is 40s before v1.32, 50s from v1.32 (<release>)
    # kube-controller-manager --node-monitor-grace-period default: 40s → 50s in v1.32 (#126287).
    # monitorNodeHealth runs every 5s from the cluster's start, so Unknown comes at the first pass
    # after the grace period.
    Given Kubernetes <release>
    And a node "node-1"
    And a pod "web" running on node "node-1"
    When node "node-1" becomes unreachable
    And 2m pass
    Then these events happen in order:
      | at      | component     | event                     |
      | T+0s    | kubelet       | node node-1 cannot reach the apiserver |
      | <at>    | nodelifecycle | node node-1 Ready=Unknown |

    Examples:
      | release | at           |
      | v1.31   | T+40s..T+45s |
      | v1.32   | T+50s..T+55s |
      | v1.33   | T+50s..T+55s |
