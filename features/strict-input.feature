Feature: Strict input: what a scenario writes is kept, what kube-apiserver refuses is refused
  A manifest in a doc string is decoded as kube-apiserver decodes a request with
  fieldValidation=Strict (R240) and validated and defaulted as the apiserver does (R242): the
  namespace it names is kept, a container port without a protocol is TCP, a namespace gets its
  default ServiceAccount (R246) and a node the labels its kubelet registers it with, which a
  pod's nodeSelector is scheduled on (R247).
  (What is refused is checked, step by step, in steps/bad-input.test.ts.)

  Scenario: a configmap keeps the namespace its manifest names, which gets its default ServiceAccount
    Given a namespace "shop"
    And a configmap "settings" with:
      """
      metadata:
        namespace: shop
      data:
        mode: fast
      """
    When the cluster settles
    Then configmap "settings" in namespace "shop" has fields:
      | path                | value  |
      | /metadata/namespace | "shop" |
      | /data/mode          | "fast" |
    And serviceaccount "default" in namespace "shop" has fields:
      | path           | value     |
      | /metadata/name | "default" |

  Scenario: the kinds a scenario declares are read back with their defaults
    Given a node "node-1"
    And a pod "web" running on node "node-1" with:
      """
      spec:
        containers:
          - name: app
            ports:
              - containerPort: 8080
      """
    And a service "web" selecting pods with label "app=web"
    And a pod disruption budget "budget" with minAvailable 1 selecting "app=web"
    When the cluster settles
    Then pod "web" has fields:
      | path                                   | value |
      | /spec/containers/0/ports/0/protocol    | "TCP" |
    And service "web" has fields:
      | path                   | value       |
      | /spec/ports/0/protocol | "TCP"       |
      | /spec/type             | "ClusterIP" |
    And poddisruptionbudget "budget" has fields:
      | path               | value |
      | /spec/minAvailable | 1     |
    And node "node-1" has fields:
      | path                                  | value     |
      | /metadata/labels/kubernetes.io~1arch  | "amd64"   |
      | /metadata/labels/kubernetes.io~1os    | "linux"   |
      | /status/allocatable/pods              | "110"     |
      | /status/capacity/cpu                  | "4"       |

  Scenario: a pod's nodeSelector on the labels a kubelet registers its node with
    Given a node "node-1"
    When the user creates pod "native" with:
      """
      spec:
        nodeSelector:
          kubernetes.io/arch: amd64
          kubernetes.io/os: linux
      """
    And the user creates pod "mainframe" with:
      """
      spec:
        nodeSelector:
          kubernetes.io/arch: s390x
      """
    And the cluster settles
    Then pod "native" has phase "Running"
    And pod "mainframe" has phase "Pending"
    And pod "mainframe" has a Warning event "FailedScheduling"
    And pod "mainframe" has fields:
      | path                         | value                                                                                                                                                            |
      | /spec/nodeName               | <absent>                                                                                                                                                         |
      | /status/conditions/0/type    | "PodScheduled"                                                                                                                                                   |
      | /status/conditions/0/reason  | "Unschedulable"                                                                                                                                                  |
      | /status/conditions/0/message | "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling." |
