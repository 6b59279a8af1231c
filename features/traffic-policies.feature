Feature: Traffic policies while the last endpoint on a node terminates
  With externalTrafficPolicy Local, a load balancer sends outside traffic only to nodes that
  have an endpoint of the service, and each node's kube-proxy only to its own endpoints. When the
  only endpoint on a node is terminating, the load balancer takes a while to notice; meanwhile
  kube-proxy on that node has no ready endpoint. With ProxyTerminatingEndpoints (beta on in 1.26,
  GA in 1.28, always on from 1.30) it sends the traffic to the serving terminating pod; without
  it, the traffic is dropped. (docs/rules/traffic.md N13, N15, N16)

  Scenario Outline: externalTrafficPolicy Local: the load balancer still sends to a node whose only endpoint is terminating (<release>)
    Given Kubernetes <release>
    And the feature gate "ProxyTerminatingEndpoints" is <gate>
    And a node "node-a"
    And a node "node-b"
    And a pod "lb-1" running on node "node-a" with label "app=lb"
    And a pod "lb-2" running on node "node-b" with label "app=lb"
    And a service "lb" with:
      """
      spec:
        type: LoadBalancer
        externalTrafficPolicy: Local
        selector:
          app: lb
      """
    And container "app" of pod "lb-2" keeps serving for 10s after SIGTERM
    And the load balancer of service "lb" notices endpoint changes after 3s
    And clients outside the cluster send a request to service "lb" every 100ms
    When the user deletes pod "lb-2"
    And 10s pass
    Then <failures> requests to service "lb" fail

    Examples:
      | release | gate     | failures |
      | v1.27   | disabled | 15       |
      | v1.27   | enabled  | 0        |
