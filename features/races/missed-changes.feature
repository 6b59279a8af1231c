Feature: A component that misses changes until it lists again
  A watch can break without its client noticing at once; client-go's Reflector then lists again
  and its informer hands the handlers what changed meanwhile. Until that relist the component acts
  on what it saw last. (docs/exploring.md)

  Background:
    Given a node "node-1"
    And a pod "web-1" running on node "node-1" with label "app=web"
    And a pod "web-2" running on node "node-1" with label "app=web"
    And a service "web" selecting pods with label "app=web"

  Scenario: The EndpointSlice controller misses the deletion until its relist at T+3s: requests fail until then
    Given the endpointslice controller misses pod changes from T+0s until a relist at T+3s
    And clients send a request to service "web" every 100ms
    When the user deletes pod "web-2"
    And 5s pass
    Then requests to service "web" fail only between T+0s and T+3s

  Scenario: The kubelet misses the deletion until its relist at T+3s: no SIGTERM until then
    Given the kubelet on node "node-1" misses pod changes from T+0s until a relist at T+3s
    When the user deletes pod "web-2"
    And 2s pass
    Then pod "web-2" is terminating
    And no runtime event "SIGTERM app pods/web-2" happens between T+0s and T+2s
    When 5s pass
    Then pod "web-2" is gone
