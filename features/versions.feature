@versions
Feature: The same deletion on each Kubernetes release (1.26 – 1.35)
  `Given Kubernetes v1.NN` runs every component (kube-apiserver, kube-controller-manager, the
  kubelets, kubectl) as that release; a whole suite can be run as one release with
  `--world-parameters '{"kubernetes":"1.30"}'`. Each outline below runs one scenario per release
  and shows, row beside row, what changed between them and where (rule ids V* in
  docs/rules/versions.md).

  Scenario Outline: kubectl's delete line names the namespace from kubectl v1.34 (<release>)
    # V4: staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go PrintObj; #126619 (v1.34).
    Given Kubernetes <release>
    And a node "node-1"
    And a pod "web" running on node "node-1"
    When I run `kubectl delete pod web --wait=false`
    Then kubectl prints '<printed>'

    Examples:
      | release | printed                                  |
      | v1.26   | pod "web" deleted                        |
      | v1.33   | pod "web" deleted                        |

    Examples:
      | release | printed                                  |
      | v1.34   | pod "web" deleted from default namespace |
      | v1.35   | pod "web" deleted from default namespace |

  Scenario Outline: the node monitor grace period is 40s before v1.32, 50s from v1.32 (<release>)
    # V3: kube-controller-manager --node-monitor-grace-period default: 40s → 50s in v1.32 (#126287).
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

  Scenario Outline: the first DELETE bumps the pod's generation from v1.33 (<release>)
    # V2: pods carry metadata.generation since v1.33 (KEP-5067, kubernetes#130181), and
    # rest.BeforeDelete adds one when it first stamps deletionTimestamp (R12). Before, pods had none.
    Given Kubernetes <release>
    And a node "node-1"
    And a pod "web" running on node "node-1"
    When the user deletes pod "web"
    Then pod "web" has fields:
      | path                                 | value   |
      | /metadata/deletionTimestamp          | T+30s   |
      | /metadata/generation                 | <after> |

    Examples:
      | release | after    |
      | v1.26   | <absent> |
      | v1.32   | <absent> |
      | v1.33   | 2        |
      | v1.35   | 2        |

  Scenario Outline: a shortened grace never moves deletionTimestamp into the past from v1.33 (<release>)
    # V1: rest.BeforeDelete computes the old deletionTimestamp - the old grace + the new grace.
    # Here that is T+5s at T+10s, already past. From v1.33 (kubernetes#122646) now is stored
    # instead, with grace 1 for a graceful request; up to v1.32 the past time and the asked grace.
    Given Kubernetes <release>
    And a node "node-1"
    And a pod "web" running on node "node-1"
    And container "app" of pod "web" ignores SIGTERM
    When the user deletes pod "web"
    And 10s pass
    And the user deletes pod "web" with options:
      """
      gracePeriodSeconds: 5
      """
    Then pod "web" has fields:
      | path                                 | value       |
      | /metadata/deletionTimestamp          | <timestamp> |
      | /metadata/deletionGracePeriodSeconds | <grace>     |

    Examples:
      | release | timestamp | grace |
      | v1.26   | T+5s      | 5     |
      | v1.32   | T+5s      | 5     |
      | v1.33   | T+10s     | 1     |
      | v1.35   | T+10s     | 1     |

  Scenario Outline: the kubelet's final DELETE stamps the time it is sent from v1.33 (<release>)
    # V1, R26: the kubelet's grace-0 DELETE is a shortening whose computed time (T+0) is past.
    # A finalizer keeps the pod, so the stamp it wrote stays visible.
    Given Kubernetes <release>
    And a node "node-1"
    And a pod "web" running on node "node-1" with:
      """
      metadata:
        finalizers: [example.com/hold]
      """
    And container "app" of pod "web" exits 3s after SIGTERM
    When the user deletes pod "web"
    And 1m passes
    Then pod "web" has fields:
      | path                                 | value       |
      | /metadata/deletionTimestamp          | <timestamp> |
      | /metadata/deletionGracePeriodSeconds | 0           |

    Examples:
      | release | timestamp |
      | v1.27   | T+0s      |
      | v1.32   | T+0s      |
      | v1.33   | T+4s      |
      | v1.35   | T+4s      |

  Scenario Outline: the unreachable NoExecute taint comes with Ready=Unknown from v1.34 (<release>)
    # V5: processTaintBaseEviction used the Ready condition observed before the pass's own update
    # up to v1.33, so the NoExecute taint came one 5s pass later (kubernetes#120816). Taint
    # eviction's 300s toleration counts from the taint.
    Given Kubernetes <release>
    And a node "node-1"
    And a pod "web" running on node "node-1"
    When node "node-1" becomes unreachable
    And 7m pass
    Then these events happen in order:
      | at           | component     | event                                                        |
      | T+50s..T+55s | nodelifecycle | node node-1 Ready=Unknown                                    |
      | <tainted>    | nodelifecycle | node node-1 tainted node.kubernetes.io/unreachable:NoExecute |
      | <evicted>    | nodelifecycle | taint eviction pods/web: deleting due to NoExecute taint     |

    Examples:
      | release | tainted      | evicted          |
      | v1.33   | T+55s..T+1m  | T+5m55s..T+6m    |
      | v1.34   | T+50s..T+55s | T+5m50s..T+5m55s |

  Scenario Outline: kube-apiserver keeps a preStop sleep action only with PodLifecycleSleepAction (<release>)
    # V8: pkg/api/pod/util.go dropPodLifecycleSleepAction: with the gate off (alpha before v1.30)
    # the sleep handler is removed on create, and a preStop left with no handler goes too.
    Given Kubernetes <release>
    And a node "node-1"
    And a pod "web" running on node "node-1" with:
      """
      spec:
        containers:
          - name: app
            image: nginx
            lifecycle:
              preStop:
                sleep:
                  seconds: 5
      """
    Then pod "web" has fields:
      | path                                               | value     |
      | /spec/containers/0/lifecycle/preStop/sleep/seconds | <seconds> |

    Examples:
      | release | seconds  |
      | v1.29   | <absent> |
      | v1.30   | 5        |

  Scenario Outline: taint eviction adds DisruptionTarget only with PodDisruptionConditions (<gate>)
    # V10: taint_eviction.go addConditionAndDeletePod: with the gate disabled (possible up to
    # v1.30) there is no GET and no condition, only the DELETE. v1.30: Ready=Unknown after 40s,
    # the NoExecute taint one pass later, the eviction 300s after it.
    Given Kubernetes v1.30
    And the feature gate "PodDisruptionConditions" is <gate>
    And a node "node-1"
    And a pod "web" running on node "node-1"
    When node "node-1" becomes unreachable
    And 6m pass
    Then pod "web" is terminating
    And <condition>
    And these events happen in exactly this order:
      | at               | component     | event                                                    |
      | T+5m50s..T+5m55s | nodelifecycle | taint eviction pods/web: deleting due to NoExecute taint |
      | T+5m50s..T+5m55s | apiserver     | <request>                                                |

    Examples:
      | gate     | request               | condition                                                                                         |
      | enabled  | PATCH pods/web/status | pod "web" has condition "DisruptionTarget" with status "True" and reason "DeletionByTaintManager" |
      | disabled | DELETE pods/web       | pod "web" has no condition "DisruptionTarget"                                                     |

  Scenario Outline: a preStop sleep longer than the grace period is refused (<release>)
    # V11: validation.go validateSleepAction: the seconds must lie within
    # terminationGracePeriodSeconds (30 here). From v1.32 the message names the zero-sleep gate
    # while it is off; with PodLifecycleSleepActionAllowZero on (β v1.33) it says non-negative.
    Given Kubernetes <release>
    And a node "node-1"
    When the user creates pod "slow" on node "node-1" with:
      """
      spec:
        containers:
          - name: app
            image: nginx
            lifecycle:
              preStop:
                sleep:
                  seconds: 60
      """
    Then the last request fails with 422 Invalid saying 'Pod "slow" is invalid: spec.containers[0].lifecycle.preStop.sleep: Invalid value: 60: <message>'

    Examples:
      | release | message                                                                                                                                            |
      | v1.30   | must be greater than 0 and less than terminationGracePeriodSeconds (30)                                                                            |
      | v1.32   | must be greater than 0 and less than terminationGracePeriodSeconds (30). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep. |
      | v1.33   | must be non-negative and less than terminationGracePeriodSeconds (30)                                                                              |

  Scenario Outline: a preStop sleep of 0 seconds is accepted from v1.33 (<release>)
    # V11: PodLifecycleSleepActionAllowZero (KEP-4818): α off v1.32, β on v1.33.
    Given Kubernetes <release>
    And a node "node-1"
    When the user creates pod "quick" on node "node-1" with:
      """
      spec:
        containers:
          - name: app
            image: nginx
            lifecycle:
              preStop:
                sleep:
                  seconds: 0
      """
    Then the last request <outcome>

    Examples:
      | release | outcome                |
      | v1.32   | fails with 422 Invalid |
      | v1.33   | returns 201            |

  Scenario Outline: kubectl delete -i lists the pod and deletes it only on "y"; (y/N) from kubectl v1.34 (<release>, "<answer>")
    # V13: delete.go RunDelete → confirmation. Up to v1.33 the answer is one word read with
    # fmt.Fscan and the question says (y/n); from v1.34 (#132251) it says (y/N) and reads a line
    # with fmt.Fscanln, so an empty line is a no. Anything but y or Y cancels: nothing is sent.
    Given Kubernetes <release>
    And a node "node-1"
    And a pod "web" running on node "node-1"
    When I run `kubectl delete pod web -i --wait=false` and answer "<answer>"
    Then kubectl prints 'You are about to delete the following 1 resource(s):'
    And kubectl prints 'pod/web'
    And kubectl prints 'Do you want to continue? <choices>: <then>'
    And <check>

    Examples:
      | release | answer | choices | then                  | check                                          |
      | v1.33   | y      | (y/n)   | pod "web" deleted     | pod "web" is terminating                       |
      | v1.33   | n      | (y/n)   | deletion is cancelled | no apiserver event "DELETE pods/web" happens   |
      | v1.33   |        | (y/n)   | deletion is cancelled | no apiserver event "DELETE pods/web" happens   |

    Examples:
      | release | answer | choices | then                                     | check                                        |
      | v1.34   | y      | (y/N)   | pod "web" deleted from default namespace | pod "web" is terminating                     |
      | v1.34   |        | (y/N)   | deletion is cancelled                    | no apiserver event "DELETE pods/web" happens |

  Scenario Outline: kubectl v1.28 has -i only with KUBECTL_INTERACTIVE_DELETE=true (<line>)
    # V13: delete_flags.go AddFlags registers --interactive on v1.28 only behind that environment
    # variable (cmdutil.InteractiveDelete); without it pflag does not know the flag.
    Given Kubernetes v1.28
    And a node "node-1"
    And a pod "web" running on node "node-1"
    When I try to run `<line>`
    Then kubectl <outcome>

    @built-in-kubectl-only
    Examples:
      | line                                                      | outcome                                                        |
      | kubectl delete pod web -i --wait=false                    | fails with "error: unknown shorthand flag: 'i' in -i"          |
      | KUBECTL_INTERACTIVE_DELETE=true kubectl delete pod web -i | prints "Do you want to continue? (y/n): deletion is cancelled" |

  Scenario Outline: pod GC marks an orphan by server-side apply up to v1.28, and cannot mark one with duplicate env names (<release>)
    # V12: gc_controller.go markFailedAndDeletePodWithCondition used ApplyStatus (field manager
    # PodGC, force) up to v1.28; converting a pod with two env entries of one name for the field
    # manager fails (500), the error stops the pass before the DELETE, and the next passes fail
    # the same way. kubernetes#121103 (v1.29; cherry-picked into 1.26.11, 1.27.8 and 1.28.4) sends
    # an ordinary status PATCH instead, which has no such check.
    Given Kubernetes <release>
    And a node "node-1"
    And a pod "web" running on node "node-1" with:
      """
      spec:
        containers:
          - name: app
            image: nginx
            env:
              - {name: MODE, value: a}
              - {name: MODE, value: b}
      """
    And node "node-1" is unreachable
    When node "node-1" is deleted
    And 2m pass
    Then pod "web" <state>
    And these events happen in order:
      | at          | component | event                                               |
      | T+40s..T+1m | podgc     | force delete pods/web: node node-1 no longer exists |
      | T+40s..T+1m | apiserver | <request>                                           |

    Examples:
      | release | state                    | request                                             |
      | v1.28   | has phase "Running"      | PATCH pods/web/status fieldManager=PodGC force=true |
      | v1.29   | is gone                  | DELETE pods/web gracePeriodSeconds=0                |
