Feature: Traffic during termination
  A Service's endpoints, every node's kube-proxy and any load balancer learn of a pod's deletion
  at their own pace, while the kubelet sends SIGTERM at once. Requests that reach a process that
  has stopped listening fail: the 502s of a rolling update. A preStop sleep longer than the
  slowest of them keeps the process serving until nobody sends it traffic any more.
  (docs/rules/traffic.md N4, N5, N7, N8, N10, N13, N14, N15, N16)

  Background:
    Given a node "node-1"
    And a pod "web-1" running on node "node-1" with label "app=web"
    And a pod "web-2" running on node "node-1" with label "app=web"
    And a service "web" selecting pods with label "app=web"

  Scenario: The 502 of a rolling update: the load balancer still sends to a pod that stopped listening at SIGTERM
    Given the load balancer of service "web" notices endpoint changes after 2s
    And clients outside the cluster send a request to service "web" every 100ms
    When the user deletes pod "web-2"
    And 5s pass
    Then requests to service "web" fail only between T+0s and T+2s
    And these events happen in order:
      | at   | component     | event                                                               |
      | T+0s | runtime       | SIGTERM app                                                         |
      | T+0s | endpointslice | updated web-                                                        |
      | T+0s | traffic       | 5 failed requests to web                                            |
      | T+2s | loadbalancer  | load balancer of web sends to: web-1                                |
    And the endpoints of service "web" do not list pod "web-2"

  Scenario: The fix: a preStop sleep longer than the load balancer's lag, and not one request fails
    Given the load balancer of service "web" notices endpoint changes after 2s
    And a pod "web-3" running on node "node-1" with:
      """
      metadata:
        labels:
          app: web
      spec:
        containers:
        - name: app
          lifecycle:
            preStop:
              sleep:
                seconds: 5
      """
    And clients outside the cluster send a request to service "web" every 100ms
    When the user deletes pod "web-3"
    And the cluster settles
    Then no request to service "web" fails
    And pod "web-3" is gone

  Scenario: A terminating pod stays in its EndpointSlice as serving but not ready, and leaves the Endpoints object
    Given container "app" of pod "web-2" keeps serving for 10s after SIGTERM
    When the user deletes pod "web-2"
    And 1s passes
    Then the endpointslice of service "web" lists pod "web-2" as terminating
    And the endpointslice of service "web" lists pod "web-2" as not-ready
    And the endpointslice of service "web" lists pod "web-2" as serving
    And the endpoints of service "web" do not list pod "web-2"
    And the endpoints of service "web" list pod "web-1"

  Scenario: The last endpoint is terminating: kube-proxy keeps sending to it while it serves, until its readiness probe fails
    Given a node "node-2"
    And a pod "api-1" running on node "node-2" with label "app=api"
    And a service "api" selecting pods with label "app=api"
    And container "app" of pod "api-1" keeps serving for 25s after SIGTERM
    And container "app" of pod "api-1" has a readiness probe every 5s that fails from SIGTERM on
    And clients send a request to service "api" every 500ms
    When the user deletes pod "api-1"
    And 30s pass
    Then requests to service "api" fail only between T+15s and T+30s
    And these events happen in order:
      | at    | component     | event                                                                |
      | T+0s  | endpointslice | updated api-                                                         |
      | T+0s  | proxy         | node node-1 applied api: api-1 (serving, terminating                 |
      | T+15s | kubelet       | readiness probe failed app pods/api-1                                |
      | T+15s | proxy         | node node-1 applied api: no endpoints                                |

  Scenario: publishNotReadyAddresses: a terminating pod stays ready in the EndpointSlice and listed in the Endpoints object
    Given a service "peers" with:
      """
      spec:
        selector:
          app: web
        publishNotReadyAddresses: true
      """
    And container "app" of pod "web-2" keeps serving for 10s after SIGTERM
    When the user deletes pod "web-2"
    And 1s passes
    Then the endpointslice of service "peers" lists pod "web-2" as ready
    And the endpointslice of service "peers" lists pod "web-2" as terminating
    And the endpoints of service "peers" list pod "web-2"
    And the endpointslice of service "web" lists pod "web-2" as not-ready
    And the endpoints of service "web" do not list pod "web-2"

  Scenario: A slow node's kube-proxy keeps sending to a pod that stopped listening at SIGTERM
    Given kube-proxy on node "node-1" applies changes after 3s
    And container "app" of pod "web-2" exits 20s after SIGTERM
    And container "app" of pod "web-2" stops accepting connections at SIGTERM
    And container "app" of pod "web-1" has a readiness probe every 5s
    And clients send a request to service "web" every 200ms that takes 100ms
    When the user deletes pod "web-2"
    And 10s pass
    Then requests to service "web" fail only between T+0s and T+2s
    And 7 requests to service "web" fail
    And these events happen in order:
      | at   | component     | event                                   |
      | T+0s | endpointslice | updated web-                            |
      | T+3s | proxy         | node node-1 applied web: web-1          |
    And the endpointslice of service "web" lists pod "web-1" as ready
    And the endpointslice of service "web" lists pod "web-2" as terminating

  Scenario: Serving on after SIGTERM is not enough when requests outlive the process: they are reset
    Given the load balancer of service "web" notices endpoint changes after 1s
    And container "app" of pod "web-2" keeps serving for 2s after SIGTERM
    And clients outside the cluster send a request to service "web" every 100ms that takes 3s
    When the user deletes pod "web-2"
    And 10s pass
    Then requests to service "web" fail only between T+2s and T+2s
    And 5 requests to service "web" fail
