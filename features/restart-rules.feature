@containers
Feature: Container restart rules in the kubelet: init containers and RestartAllContainers
  With ContainerRestartRules (on from v1.35) a container's own restartPolicy and restartPolicyRules
  decide its restart before the pod's policy — for init containers too. From v1.36
  (RestartAllContainersOnContainerExits) a rule's action can be RestartAllContainers: the kubelet
  then restarts the whole pod in place, init containers first, keeping its sandbox, IP and UID (V70).

  Background:
    Given a node "node-1"

  Scenario: v1.36 — a watcher that exits 88 restarts every container of the pod in place
    # The watcher matches its RestartAllContainers rule: AllContainersRestarting turns True, app is
    # killed without its grace period (SIGTERM ends it at once here), every container is removed
    # from the runtime, and the pod starts over from its init container. The pod is never Failed.
    Given Kubernetes 1.36
    And a pod "job" running on node "node-1" with:
      """
      spec:
        restartPolicy: Never
        initContainers:
        - name: setup
        containers:
        - name: app
        - name: watcher
          restartPolicy: Never
          restartPolicyRules:
          - action: RestartAllContainers
            exitCodes:
              operator: In
              values: [88]
      """
    And container "watcher" of pod "job" exits with code 88 after running 70s
    When 20s pass
    Then these events happen in order:
      | at    | component | event                                                                                                                  |
      | T+11s | runtime   | exited watcher code=88 pods/job                                                                                        |
      | T+12s | kubelet   | pods/job: container watcher exited 88 (a RestartAllContainers rule): every container is killed and removed, the pod restarts in place |
      | T+12s | events    | Killing pods/job: Stopping container app                                                                               |
      | T+12s | runtime   | removed app pods/job                                                                                                   |
      | T+12s | runtime   | removed watcher pods/job                                                                                               |
      | T+13s | runtime   | started setup pods/job                                                                                                 |
      | T+14s | runtime   | started app pods/job                                                                                                   |
    And pod "job" has fields:
      | path                                                        | value                     |
      | /status/phase                                               | "Running"                 |
      | /status/containerStatuses/0/name                            | "app"                     |
      | /status/containerStatuses/0/restartCount                    | 1                         |
      | /status/containerStatuses/0/lastState/terminated/exitCode   | 137                       |
      | /status/containerStatuses/0/lastState/terminated/reason     | "RestartingAllContainers" |
      | /status/conditions/5/type                                   | "AllContainersRestarting" |
      | /status/conditions/5/status                                 | "False"                   |

  Scenario: v1.35 — the action is refused: its gate is off
    Given Kubernetes 1.35
    When the user creates pod "job" on node "node-1" with:
      """
      spec:
        containers:
        - name: app
          restartPolicy: Never
          restartPolicyRules:
          - action: RestartAllContainers
            exitCodes:
              operator: In
              values: [88]
      """
    Then the last request fails with 422 Invalid saying 'spec.containers[0].restartPolicyRules[0].action: Unsupported value: "RestartAllContainers": supported values: "Restart"'

  Scenario: v1.35 — an init container with restartPolicy Never fails an Always pod at its first failure
    Given Kubernetes 1.35
    And a pod "web" running on node "node-1" with:
      """
      spec:
        initContainers:
        - name: init-once
          restartPolicy: Never
      """
    And container "init-once" of pod "web" exits with code 1 after running 5s
    Then pod "web" has fields:
      | path                                                     | value    |
      | /status/phase                                            | "Failed" |
      | /status/initContainerStatuses/0/restartCount             | 0        |
      | /status/initContainerStatuses/0/state/terminated/exitCode | 1        |

  Scenario: v1.34 — with ContainerRestartRules off the init container's Never is dropped: the pod's Always retries it
    Given Kubernetes 1.34
    And a pod "web" running on node "node-1" with:
      """
      spec:
        initContainers:
        - name: init-once
          restartPolicy: Never
      """
    And container "init-once" of pod "web" exits with code 1 after running 5s
    Then pod "web" has phase "Pending"
    And pod "web" has fields:
      | path                                                 | value    |
      | /spec/initContainers/0/restartPolicy                 | <absent> |
      | /status/initContainerStatuses/0/restartCount         | 1        |
