@stuck-volume
Feature: A volume that cannot be unmounted keeps a pod Terminating
  The kubelet sends its final DELETE only after SyncTerminatedPod has finished, and that waits for
  every volume of the pod to be unmounted. The terminal phase is written before that wait, so a
  pod whose NFS server has gone away shows phase Failed (or Succeeded) and "Terminating" at the
  same time, long after its deletionTimestamp has passed: the apiserver never enforces the
  deadline, and the kubelet keeps retrying the unmount with exponential back-off (capped at about
  two minutes) for ever. A slow unmount delays the removal by exactly that long. The only way out
  without fixing the node is a force delete, which removes the object and leaves the kubelet
  retrying the unmount on its own.

  Background:
    Given a node "node-1"
    And a pod "web" running on node "node-1" with:
      """
      spec:
        containers:
          - name: app
            volumeMounts:
              - name: data
                mountPath: /data
        volumes:
          - name: data
            nfs:
              server: nfs.example.com
              path: /exports/web
      """

  Scenario: a volume that unmounts normally does not hold anything up
    When the user deletes pod "web"
    And the cluster settles
    Then pod "web" is gone
    And these events happen in exactly this order:
      | at   | component | event                        |
      | T+0s | volumes   | unmount data                 |
      | T+0s | volumes   | unmounted data               |
      | T+1s | status    | resources reclaimed pods/web |
      | T+1s | status    | DELETE pods/web              |

  Scenario: the pod stays Terminating with a terminal phase while the unmount keeps failing
    # SyncTerminatedPod (K40) pushes the terminal status first, then blocks in WaitForUnmount;
    # TerminatePod never runs, so canBeDeleted (K36) never holds (timeline S7). The deadline
    # T+30s passes without effect (K7, R18).
    Given volume "data" of pod "web" cannot be unmounted
    When the user deletes pod "web"
    And 10m pass
    Then pod "web" is terminating
    And pod "web" has fields:
      | path                                 | value    |
      | /status/phase                        | "Failed" |
      | /metadata/deletionTimestamp          | T+30s    |
      | /metadata/deletionGracePeriodSeconds | 30       |
    And no status event "resources reclaimed" happens
    And no status event "DELETE pods/web" happens
    And no etcd event "DELETE /registry/pods/default/web" happens

  Scenario: the unmount is retried with exponential back-off capped at about two minutes
    # Volume operation back-off (K39, goroutinemap exponentialbackoff): 0.5s, doubling, capped at
    # 2m2s.
    Given volume "data" of pod "web" cannot be unmounted
    When the user deletes pod "web"
    And 10m pass
    Then these events happen in order:
      | at      | component | event                                       |
      | T+0s    | volumes   | unmount failed data pods/web: retry in 0.5s |
      | T+0s    | volumes   | unmount failed data pods/web: retry in 1s   |
      | T+1s    | volumes   | unmount failed data pods/web: retry in 2s   |
      | T+3s    | volumes   | unmount failed data pods/web: retry in 4s   |
      | T+8s    | volumes   | unmount failed data pods/web: retry in 8s   |
      | T+16s   | volumes   | unmount failed data pods/web: retry in 16s  |
      | T+32s   | volumes   | unmount failed data pods/web: retry in 32s  |
      | T+1m4s  | volumes   | unmount failed data pods/web: retry in 64s  |
      | T+2m8s  | volumes   | unmount failed data pods/web: retry in 122s |
      | T+4m10s | volumes   | unmount failed data pods/web: retry in 122s |
      | T+6m12s | volumes   | unmount failed data pods/web: retry in 122s |

  Scenario: the kubelet's wait for the unmount times out every 2m3s and starts again
    # volume_manager WaitForUnmount (K40): timeout 2m3s, then the pod worker retries
    # SyncTerminatedPod after its error back-off (K19), for ever.
    Given volume "data" of pod "web" cannot be unmounted
    When the user deletes pod "web"
    And 10m pass
    Then these events happen in order:
      | at      | component | event                                                         |
      | T+1s    | kubelet   | SyncTerminatedPod pods/web                                    |
      | T+2m4s  | kubelet   | sync error pods/web: timed out waiting for volumes to unmount |
      | T+2m14s | kubelet   | SyncTerminatedPod pods/web                                    |
      | T+4m17s | kubelet   | sync error pods/web: timed out waiting for volumes to unmount |
      | T+4m27s | kubelet   | SyncTerminatedPod pods/web                                    |

  Scenario: a slow unmount delays the kubelet's final DELETE by that long
    # The terminal phase is already in the API while the unmount runs (K40: status first).
    Given volume "data" of pod "web" takes 20s to unmount
    When the user deletes pod "web"
    And 10s pass
    Then pod "web" is terminating
    And pod "web" has phase "Failed"
    When 15s pass
    Then pod "web" is gone
    And these events happen in exactly this order:
      | at    | component | event                                                   |
      | T+0s  | volumes   | unmount data                                            |
      | T+20s | volumes   | unmounted data                                          |
      | T+20s | status    | resources reclaimed pods/web                            |
      | T+20s | status    | DELETE pods/web gracePeriodSeconds=0 preconditions.uid= |

  Scenario: a force delete gets the pod out of the API, but the node keeps failing to unmount
    # The escape hatch (timeline S7, last row): grace 0 removes the object (R19/R23), stamped with
    # the time of the request (v1.33, kubernetes#122646; up to v1.32 T+0); the kubelet
    # keeps the volume in its actual state and retries it as an orphan; the pod directory stays
    # while it is mounted (K42).
    Given volume "data" of pod "web" cannot be unmounted
    When the user deletes pod "web"
    And 3m pass
    Then pod "web" is terminating
    When I run `kubectl delete pod web --force`
    Then pod "web" is gone
    And the last request changed pod "web" like this:
      | path                                 | from  | to   |
      | /metadata/deletionTimestamp          | T+30s | T+3m |
      | /metadata/deletionGracePeriodSeconds | 30    | 0    |
    When 5m pass
    Then these events happen in order:
      | at      | component | event                                                             |
      | T+3m    | apiserver | DELETE pods/web gracePeriodSeconds=0 propagationPolicy=Background |
      | T+3m    | etcd      | DELETE /registry/pods/default/web                                 |
      | T+3m    | kubelet   | REMOVE pods/web                                                   |
      | T+4m10s | volumes   | unmount failed data                                               |
      | T+6m12s | volumes   | unmount failed data                                               |
    And no status event "DELETE pods/web" happens
