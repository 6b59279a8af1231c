Feature: The 502s of a Deployment's rolling update, and the preStop sleep that removes them
  A rolling update deletes the old pods as their replacements turn available (W8). The kubelet
  sends SIGTERM at once; the load balancer in front of the Service learns of the deletion only
  after its lag, and keeps sending requests to a process that stopped listening: they fail. A
  preStop `sleep` longer than that lag keeps the old process serving until nobody sends it traffic
  any more (docs/rules/traffic.md N13, N15; PodLifecycleSleepAction, on from v1.30).

  Background:
    Given a node "node-1"
    And a node "node-2"

  Scenario: without a preStop hook, requests fail while the load balancer catches up
    Given a deployment "web" with 3 replicas
    And a service "web" selecting pods with label "app=web"
    And the load balancer of service "web" notices endpoint changes after 2s
    And clients outside the cluster send a request to service "web" every 100ms
    When deployment "web" rolls out a new template
    And the cluster settles
    Then 19 requests to service "web" fail
    And these events happen in order:
      | at   | component  | event                        |
      | T+0s | deployment | creates replicaset web-      |
      | T+0s | replicaset | creates pod web-             |
      | T+0s | replicaset | deletes pod web-             |
      | T+0s | runtime    | SIGTERM app                  |
      | T+0s | traffic    | 9 failed requests to web     |

  Scenario: with a preStop sleep longer than the load balancer's lag, not one request fails
    Given a deployment "web" with 3 replicas with:
      """
      spec:
        template:
          spec:
            containers:
              - name: app
                lifecycle:
                  preStop:
                    sleep:
                      seconds: 5
      """
    And a service "web" selecting pods with label "app=web"
    And the load balancer of service "web" notices endpoint changes after 2s
    And clients outside the cluster send a request to service "web" every 100ms
    When deployment "web" rolls out a new template
    And the cluster settles
    Then no request to service "web" fails
