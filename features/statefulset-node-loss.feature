Feature: A StatefulSet's pod on a node that is lost
  A StatefulSet keeps one pod per identity: it creates db-0 again only once the old db-0 has
  left the API. On a lost node the old pod is deleted by taint eviction after its 300 s
  toleration, but no kubelet sends the final DELETE: it stays Terminating, and the StatefulSet
  waits. Two things end the wait — a force deletion, which removes the object whatever still runs
  on the node, or the out-of-service taint, with which an administrator says the node is off and
  pod GC deletes the pod itself (pkg/controller/podgc gcTerminating). (W53)

  Background:
    Given nodes "node-1" and "node-2"
    And a statefulset "db" with 1 replicas

  Scenario: The node is cut off: a force deletion lets the StatefulSet start db-0 elsewhere while the old one still runs
    When node "node-1" becomes unreachable
    And 6m pass
    Then pod "db-0" is terminating
    And no statefulset event "statefulsets/db scales down" happens
    When I run `kubectl delete pod db-0 --force`
    And 10s pass
    Then pod "db-0" has fields:
      | path           | value    |
      | /spec/nodeName | "node-2" |
    And these events happen in order:
      | component     | event                                                        |
      | nodelifecycle | taint eviction pods/db-0                                     |
      | apiserver     | DELETE pods/db-0 gracePeriodSeconds=0                        |
      | apiserver     | CREATE pods/db-0                                             |
      | scheduler     | schedules pods/db-0 to node-2                                |
      | runtime       | double run pods/db-0: started while another pods/db-0        |

  Scenario: The node is off and tainted out-of-service: pod GC deletes db-0 and nothing runs twice
    When node "node-1" loses power
    And 6m pass
    Then pod "db-0" is terminating
    When node "node-1" is tainted out-of-service
    And 1m passes
    Then pod "db-0" has fields:
      | path           | value    |
      | /spec/nodeName | "node-2" |
    And these events happen in order:
      | component | event                      |
      | kubelet   | node node-1 lost power     |
      | podgc     | force delete pods/db-0     |
      | apiserver | CREATE pods/db-0           |
    And no runtime event "double run" happens
