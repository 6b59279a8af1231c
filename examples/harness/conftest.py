"""A pytest fixture serving a terminating cluster, for tests written with the official Python client.

It runs `terminating serve --clock manual` (the command is $TERMINATING, default `npx terminating`):
virtual time stands still until the test POSTs /terminating/v1/clock?advance=DURATION.
"""
import json
import os
import shlex
import signal
import subprocess
import tempfile
import time
import urllib.request

import pytest
from kubernetes import client, config


class Cluster:
    def __init__(self, url, kubeconfig):
        self.url = url
        self.kubeconfig = kubeconfig

    def advance(self, duration):
        """Moves virtual time on by DURATION ("30s", "1m30s") and returns the clock's state."""
        request = urllib.request.Request(f"{self.url}/terminating/v1/clock?advance={duration}", method="POST")
        with urllib.request.urlopen(request) as response:
            return json.load(response)

    def since_start(self):
        with urllib.request.urlopen(f"{self.url}/terminating/v1/clock") as response:
            return json.load(response)["sinceStartMs"]


@pytest.fixture
def cluster():
    command = shlex.split(os.environ.get("TERMINATING", "npx terminating"))
    with tempfile.TemporaryDirectory() as reports:
        server = subprocess.Popen(
            [*command, "serve", "--clock", "manual", "--report-dir", reports],
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own process group: npx's child stops with it
        )
        try:
            kubeconfig = url = None
            for line in server.stdout:  # the first lines say where it serves and where the kubeconfig is
                if line.startswith("kubeconfig: "):
                    kubeconfig = line.split(": ", 1)[1].strip()
                if line.startswith("virtual time: GET "):
                    url = line.split()[3].split("/terminating/")[0]
                if kubeconfig and url:
                    break
            assert kubeconfig and url, "terminating serve did not start"
            config.load_kube_config(config_file=kubeconfig)
            yield Cluster(url, kubeconfig)
        finally:
            os.killpg(server.pid, signal.SIGTERM)  # as Ctrl-C would: npx and terminating serve
            server.wait(timeout=30)
            # npx can exit before terminating serve has written its report on SIGTERM: wait for the
            # whole process group, so the reports folder is not removed while it is being written.
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    os.killpg(server.pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.05)
