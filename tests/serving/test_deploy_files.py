"""The deployment files, checked offline (no container runtime or cluster here): compose.yaml against the Compose
Specification's schema (the copy check-jsonschema ships), the Kubernetes manifests against Kubernetes' own schemas
(kubernetes-validate, strict: an unknown field is an error), deploy/haproxy.cfg by haproxy itself (`haproxy -c`),
and what the Dockerfile and the manifests must say (health endpoint, non-root user, probes, affinity)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from importlib.resources import files
from pathlib import Path

import jsonschema
import kubernetes_validate
import pytest
import yaml

from deploy.topology import HAPROXY_CFG, haproxy_config, program

ROOT = Path(__file__).resolve().parents[2]
KUBERNETES = ROOT / "deploy" / "kubernetes"
KUBERNETES_VERSION = "1.33.0"  # a version clusters run today; the manifests use only stable APIs
HEALTH = "/_stcore/health"


def manifests() -> list[dict]:
    kustomization = yaml.safe_load((KUBERNETES / "kustomization.yaml").read_text())
    return [doc for name in kustomization["resources"] for doc in yaml.safe_load_all((KUBERNETES / name).read_text())]


def by_kind(kind: str) -> list[dict]:
    return [doc for doc in manifests() if doc["kind"] == kind]


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def test_compose_follows_the_compose_specification():
    schema = json.loads((files("check_jsonschema.builtin_schemas.vendor") / "compose-spec.json").read_text())
    jsonschema.validate(compose(), schema)


def test_the_compose_schema_check_can_fail():
    broken = compose()
    broken["services"]["app"]["replica"] = 3  # a misspelt key: the specification allows none it does not name
    schema = json.loads((files("check_jsonschema.builtin_schemas.vendor") / "compose-spec.json").read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


def test_compose_runs_replicas_behind_the_balancer_with_redis():
    services = compose()["services"]
    assert services["app"]["deploy"]["replicas"] >= 2
    assert services["app"]["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    assert "./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in services["balancer"]["volumes"]
    assert services["redis"]["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    # the balancer finds the replicas by the service's name, as many as the template allows
    assert re.search(r"^\s*server-template app 1-\d+ app:8501 ", HAPROXY_CFG.read_text(), re.M)


@pytest.mark.parametrize("index", range(len(manifests())), ids=lambda i: f"{manifests()[i]['kind']}")
def test_each_manifest_follows_the_kubernetes_schema(index):
    kubernetes_validate.validate(manifests()[index], KUBERNETES_VERSION, strict=True)


def test_the_kubernetes_schema_check_can_fail():
    deployment = by_kind("Deployment")[0]
    deployment["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["httpGet"]["pth"] = HEALTH
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, KUBERNETES_VERSION, strict=True)


def test_kustomize_builds_the_manifests():
    kubectl = program("kubectl")
    if kubectl is None:
        pytest.skip("no kubectl here: the manifests were checked one by one above")
    built = subprocess.run([kubectl, "kustomize", str(KUBERNETES)], capture_output=True, text=True, check=True)
    assert sorted(doc["kind"] for doc in yaml.safe_load_all(built.stdout)) == sorted(d["kind"] for d in manifests())


def test_the_app_is_probed_on_streamlits_health_endpoint_and_runs_unprivileged():
    app = next(d for d in by_kind("Deployment") if d["metadata"]["name"] == "attention")
    pod = app["spec"]["template"]["spec"]
    container = pod["containers"][0]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"]["path"] == HEALTH
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert {e["name"]: e["value"] for e in container["env"]}["REDIS_URL"] == "redis://redis:6379/0"


def test_the_ingress_keeps_a_browser_on_its_pod_and_its_websocket_open():
    annotations = by_kind("Ingress")[0]["metadata"]["annotations"]
    assert annotations["nginx.ingress.kubernetes.io/affinity"] == "cookie"
    assert int(annotations["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600
    assert int(annotations["nginx.ingress.kubernetes.io/proxy-send-timeout"]) >= 3600


def test_the_autoscaler_scales_the_app():
    hpa = by_kind("HorizontalPodAutoscaler")[0]
    assert hpa["spec"]["scaleTargetRef"]["name"] == "attention"
    assert 1 < hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]


def haproxy_check(config: Path) -> subprocess.CompletedProcess:
    haproxy = program("haproxy")
    if haproxy is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no haproxy: apt-get install haproxy")
        pytest.skip("no haproxy here (apt-get install haproxy)")
    env = {**os.environ, "HAPROXY_BIND": "127.0.0.1:8080", "HAPROXY_COOKIE_KEY": "test"}
    return subprocess.run([haproxy, "-c", "-f", str(config)], capture_output=True, text=True, env=env)


def test_haproxy_accepts_the_compose_configuration():
    checked = haproxy_check(HAPROXY_CFG)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_haproxy_accepts_the_local_configuration_and_would_refuse_a_broken_one(tmp_path):
    local = tmp_path / "local.cfg"
    local.write_text(haproxy_config([("r1", 8501), ("r2", 8502)]))
    checked = haproxy_check(local)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    local.write_text(local.read_text().replace("timeout tunnel 1h", "timeout tunnel soon"))
    assert haproxy_check(local).returncode != 0


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined, comments left out."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def test_the_image_is_slim_unprivileged_health_checked_and_runs_the_app():
    instructions = dockerfile()
    assert {keyword for keyword, _ in instructions} <= {
        "FROM",
        "ENV",
        "WORKDIR",
        "COPY",
        "RUN",
        "USER",
        "EXPOSE",
        "HEALTHCHECK",
        "ENTRYPOINT",
    }
    args = dict(instructions)
    assert args["FROM"].endswith("-slim")
    assert args["USER"] not in {"root", "0"}
    assert HEALTH in args["HEALTHCHECK"]
    assert json.loads(args["ENTRYPOINT"])[:3] == ["streamlit", "run", "app.py"]


def test_the_image_gets_what_the_app_needs():
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines() if line.strip()}
    for needed in ("app.py", "pages", "engine", "ui", "assets", ".streamlit", "requirements.txt"):
        assert needed not in ignored and (ROOT / needed).exists(), needed
    for keyword, source in dockerfile():
        if keyword == "COPY" and not source.startswith("--"):
            assert (ROOT / source.split()[0]).exists(), source


def test_the_image_carries_the_apps_bytecode():
    """PYTHONDONTWRITEBYTECODE keeps a container from writing bytecode, so the image compiles the app's own
    modules at build, after they are copied in; else every start compiles them from source again."""
    instructions = dockerfile()
    assert "PYTHONDONTWRITEBYTECODE=1" in dict(instructions)["ENV"]
    copied = max(i for i, (keyword, source) in enumerate(instructions) if keyword == "COPY" and source.endswith(" ."))
    compiled = [i for i, (keyword, command) in enumerate(instructions) if keyword == "RUN" and "compileall" in command]
    assert compiled and compiled[0] > copied
    targets = instructions[compiled[0]][1].split("compileall", 1)[1].split()
    assert {"app.py", "pages", "ui", "engine"} <= set(targets)
