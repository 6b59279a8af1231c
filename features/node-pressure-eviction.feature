@node-pressure
Feature: Node-pressure eviction: the kubelet evicts pods when memory runs low
  Every 10 s the kubelet's eviction manager (K71) compares memory.available with its thresholds.
  A hard threshold (evictionHard, by default memory.available<100Mi) acts at once; a soft one
  (evictionSoft) only once it has been met for its evictionSoftGracePeriod. While a threshold is
  met, or for evictionPressureTransitionPeriod (5m) after, the kubelet reports the node condition
  MemoryPressure=True (K74), and the node lifecycle controller taints the node
  node.kubernetes.io/memory-pressure:NoSchedule. Each pass records EvictionThresholdMet, ranks the
  active pods (K73: those using more memory than they request first, then the lowest priority,
  then the largest usage above the request) and evicts the first one (K72): a Warning Evicted
  Event, a kill with grace 1 s (hard) or evictionMaxPodGracePeriod capped by the pod's own grace
  (soft), and the status Failed / Evicted with DisruptionTarget. The pod stays in the API until pod
  GC's terminated-pod threshold (K50) collects it. The manager then waits for the pod's cleanup and
  looks again: the evicted pod's memory is free.

  A pod's memory use is `container "app" of pod "web" uses 300Mi of memory` (the annotation
  terminating.sim/memory.app: 300Mi in a manifest); "comes under memory pressure" leaves no memory
  available, "… with 400Mi available" leaves that much.

  Background:
    Given a node "node-1"

  Scenario: a hard threshold: the pod using more than it requests goes first, with a 1 s grace
    Given a pod "cache" running on node "node-1"
    And container "app" of pod "cache" uses 300Mi of memory
    And container "app" of pod "cache" ignores SIGTERM
    And a pod "api" running on node "node-1" with:
      """
      spec:
        containers:
          - name: app
            resources:
              requests:
                memory: 500Mi
      """
    And container "app" of pod "api" uses 200Mi of memory
    When node "node-1" comes under memory pressure
    And 1m passes
    Then these events happen in order:
      | at     | component     | event                                                                        |
      | T+10s  | kubelet       | eviction manager: memory.available=0: thresholds met memory.available<100Mi (hard) |
      | T+10s  | events        | EvictionThresholdMet nodes/node-1: Attempting to reclaim memory              |
      | T+10s  | kubelet       | eviction manager: pods ranked for eviction: pods/cache, pods/api             |
      | T+10s  | events        | Evicted pods/cache: The node was low on resource: memory. Threshold quantity: 100Mi, available: 0. Container app was using 300Mi, request is 0, has larger consumption of memory. |
      | T+10s  | kubelet       | killPodNow pods/cache gracePeriod=1                                          |
      | T+10s  | runtime       | SIGTERM app pods/cache                                                       |
      | T+12s  | runtime       | SIGKILL app pods/cache                                                       |
      | T+13s  | kubelet       | eviction manager: pods successfully cleaned up: pods/cache                   |
      | T+20s  | events        | NodeHasInsufficientMemory nodes/node-1                                        |
      | T+20s  | nodelifecycle | node node-1 taints +node.kubernetes.io/memory-pressure:NoSchedule            |
    And pod "cache" has fields:
      | path                        | value      |
      | /metadata/deletionTimestamp | <absent>   |
      | /status/phase               | "Failed"   |
      | /status/reason              | "Evicted"  |
    And pod "cache" has condition "DisruptionTarget" with status "True" and reason "TerminationByKubelet"
    And pod "cache" has a Warning event "Evicted"
    And pod "api" has phase "Running"
    And node "node-1" has condition "MemoryPressure" with status "True"
    And node "node-1" has the taint "node.kubernetes.io/memory-pressure" with effect "NoSchedule"

  Scenario: with nothing freed, the lowest priority goes first, one pod per pass
    Given a pod "batch" running on node "node-1" with:
      """
      spec:
        priority: 10
      """
    And a pod "web" running on node "node-1" with:
      """
      spec:
        priority: 1000
      """
    When node "node-1" comes under memory pressure
    And 1m passes
    Then these events happen in order:
      | at    | component | event                                                       |
      | T+10s | kubelet   | eviction manager: pods ranked for eviction: pods/batch, pods/web |
      | T+10s | events    | Evicted pods/batch                                          |
      | T+11s | kubelet   | eviction manager: pods successfully cleaned up: pods/batch  |
      | T+11s | kubelet   | eviction manager: pods ranked for eviction: pods/web        |
      | T+11s | events    | Evicted pods/web                                            |
    And pod "batch" has phase "Failed"
    And pod "web" has phase "Failed"

  Scenario: a soft threshold waits for its grace period and gives the pod evictionMaxPodGracePeriod
    Given the kubelet on node "node-1" is configured with:
      """
      evictionHard:
        memory.available: 100Mi
      evictionSoft:
        memory.available: 500Mi
      evictionSoftGracePeriod:
        memory.available: 30s
      evictionMaxPodGracePeriod: 20
      """
    And a pod "web" running on node "node-1"
    And container "app" of pod "web" uses 400Mi of memory
    And container "app" of pod "web" ignores SIGTERM
    When node "node-1" comes under memory pressure with 300Mi available
    And 2m passes
    Then these events happen in order:
      | at    | component | event                                                                                                             |
      | T+10s | kubelet   | eviction manager: memory.available=300Mi: thresholds met memory.available<500Mi (soft, grace 30s); eviction criteria not yet met |
      | T+20s | kubelet   | eviction manager: memory.available=300Mi: thresholds met memory.available<500Mi (soft, grace 30s); eviction criteria not yet met |
      | T+40s | events    | Evicted pods/web: The node was low on resource: memory. Threshold quantity: 500Mi, available: 300Mi. Container app was using 400Mi, request is 0, has larger consumption of memory. |
      | T+40s | kubelet   | killPodNow pods/web gracePeriod=20                                                                                |
      | T+40s | runtime   | SIGTERM app pods/web                                                                                              |
      | T+1m0s | runtime  | SIGKILL app pods/web                                                                                              |
    And no kubelet event "eviction manager: evicting pods/web gracePeriodOverride=1" happens
    And pod "web" has fields:
      | path           | value     |
      | /status/phase  | "Failed"  |
      | /status/reason | "Evicted" |

  Scenario: the condition and the taint stay for the pressure transition period after the pressure ends
    Given the kubelet on node "node-1" is configured with:
      """
      evictionPressureTransitionPeriod: 1m
      """
    And a pod "web" running on node "node-1"
    When node "node-1" comes under memory pressure
    And 30s pass
    And node "node-1" is no longer under memory pressure
    And the cluster settles
    # The threshold was last met by the pass at T+21s; the condition lifts at the first pass 1m
    # later (T+1m21s) and reaches the API with the next node status update (T+1m30s).
    Then these events happen in order:
      | at    | component     | event                                                             |
      | T+20s | events        | NodeHasInsufficientMemory nodes/node-1                             |
      | T+20s | nodelifecycle | node node-1 taints +node.kubernetes.io/memory-pressure:NoSchedule |
      | T+1m30s | events      | NodeHasSufficientMemory nodes/node-1                               |
      | T+1m30s | nodelifecycle | node node-1 taints -node.kubernetes.io/memory-pressure:NoSchedule |
    And node "node-1" has condition "MemoryPressure" with status "False"
    And node "node-1" has no taint "node.kubernetes.io/memory-pressure"
    And pod "web" has phase "Failed"

  Scenario: evicted pods stay Failed until pod GC's terminated-pod threshold collects them, evicted first
    Given the terminated-pod GC threshold is 1
    And a pod "old" on node "node-1" whose containers have completed
    And a pod "web" running on node "node-1"
    When node "node-1" comes under memory pressure
    And 1m passes
    Then these events happen in order:
      | component | event                 |
      | events    | Evicted pods/web      |
      | podgc     | force delete pods/web |
    And pod "web" is gone
    And pod "old" exists
