"""A pod that drains for 10 s after SIGTERM, deleted with the official Python client:
    python3 -m pytest examples/harness
"""
from kubernetes import client
from kubernetes.client.rest import ApiException


def test_a_pod_that_drains_is_gone_once_its_process_exits(cluster):
    core = client.CoreV1Api()
    core.create_namespaced_pod("default", {
        "metadata": {"name": "worker", "annotations": {"terminating.sim/sigterm.app": "exit after 10s"}},
        "spec": {"nodeName": "node-1", "containers": [{"name": "app", "image": "busybox"}]},
    })
    cluster.advance("5s")
    assert core.read_namespaced_pod("worker", "default").status.phase == "Running"

    core.delete_namespaced_pod("worker", "default")
    assert core.read_namespaced_pod("worker", "default").metadata.deletion_timestamp is not None

    cluster.advance("9s")  # still draining
    core.read_namespaced_pod("worker", "default")

    cluster.advance("2s")  # exited at 10s: the kubelet's final DELETE removed it
    try:
        core.read_namespaced_pod("worker", "default")
        raise AssertionError("pod worker still exists")
    except ApiException as e:
        assert e.status == 404
