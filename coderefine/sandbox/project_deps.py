"""A project's third-party dependencies, as a cached image layer over the sandbox image.

The project itself is mounted read-only and put on the path of the processes that run its code;
what it and its tests import from elsewhere must be installed in the image. What it declares
(`coderefine.sandbox.requirements`: plain requirements only, the rest refused and said) is
fetched on the host as wheels alone (`--only-binary`: nothing of the repository's choosing is
built or run here), for the sandbox's very interpreter (`wheels`: its version, ABI and
platforms); a requirement with no wheel is built from its source in a container with no network
and no secrets (`source_builds`); one that cannot be had is left out and said, and the rest are
installed without it. The wheels are installed in a folder of their own (DEPENDENCIES_IN_IMAGE),
outside the sandbox's own site-packages, so that their `.pth` files never run in the runner or
the judge, in an image named by the hash of the sandbox image and the requirements, so each set
is built once (what was left out is kept in a label of the image, and said again each time).
The project's own name and version go there too, as the metadata of an installed distribution
(`own_metadata`): a package that reads its version with `importlib.metadata` imports.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from coderefine.errors import EnvironmentProblem
from coderefine.sandbox import source_builds
from coderefine.sandbox.own_metadata import own_metadata
from coderefine.sandbox.requirements import Declared, declared
from coderefine.sandbox.wheels import Fetched, Fetcher, Interpreter, interpreter

if TYPE_CHECKING:
    from docker import DockerClient
    from docker.errors import BuildError

DEPS_REPOSITORY = "coderefine-deps"
DEPENDENCIES_IN_IMAGE = "/opt/project-deps"
# All the wheels at once; where that fails, each alone, and one that does not install is said in the
# build's log (after _NOT_INSTALLED, with pip's last error) and left out: the rest are the tests' needs.
_PIP = "/opt/venv/bin/pip install --no-index --no-deps --no-cache-dir --disable-pip-version-check --target {target}"
_NOT_INSTALLED = "coderefine-not-installed: "
_INSTALL = """\
COPY wheels /tmp/wheels
RUN {pip} /tmp/wheels/*.whl || for wheel in /tmp/wheels/*.whl; do \\
        said=$({pip} "$wheel" 2>&1) || echo "{marker}${{wheel##*/}}: $(echo "$said" | grep '^ERROR:' | tail -n 1)"; \\
    done; rm -rf /tmp/wheels
"""
_LEFT_OUT_LABEL = "coderefine.left-out"  # what could not be had, said again at each use of the image
# What pip on the host keeps of the environment: how to reach the index, nothing else (no API key).
_PIP_ENVIRONMENT = re.compile(
    r"PATH|HOME|LANG|LC_\w+|TMPDIR|PIP_\w+|(HTTPS?|NO|ALL)_PROXY|(https?|no|all)_proxy|SSL_CERT_\w+|"
    r"REQUESTS_CA_BUNDLE|XDG_(CONFIG|CACHE)_HOME"
)


def project_image(
    client: DockerClient,
    project: Path,
    base: str,
    extra: Sequence[str] = (),
    on_note: Callable[[str], None] | None = None,
    exclude: Sequence[str] = (),
) -> str:
    """The image to run `project`'s code and tests in: `base`, or `base` plus what the project
    declares it needs (`requirements.declared`, with the `extra` requirements a setting names, but
    those `exclude` leaves out). Each line refused, and each requirement that cannot be had, is said
    to `on_note`."""
    import docker.errors

    say = on_note or (lambda _: None)
    found = declared(project, extra, exclude)
    for refused in found.refused:
        say(refused.text())
    own = own_metadata(project)
    if not found.requirements and own is None:
        return base
    requirements = "\n".join(found.requirements) + "\n"
    base_id = client.images.get(base).id
    metadata = own.text() if own is not None else ""
    digest = hashlib.sha256(f"{base_id}\n{requirements}\n{metadata}".encode()).hexdigest()[:12]
    tag = f"{DEPS_REPOSITORY}:{digest}"
    try:
        for line in json.loads(client.images.get(tag).labels.get(_LEFT_OUT_LABEL) or "[]"):
            say(str(line))
        return tag
    except docker.errors.ImageNotFound:
        pass
    target = interpreter(client, base)
    with tempfile.TemporaryDirectory(prefix="coderefine-deps-") as folder:
        context = Path(folder)
        fetched = _fetch(client, base, context / "fetch", target, found)
        left_out = [item.text(target.version) for item in fetched.left_out]
        for line in left_out:
            say(line)
        (context / "wheels").mkdir()
        for wheel in fetched.wheels:
            shutil.copy(wheel, context / "wheels" / wheel.name)
        pip = _PIP.format(target=DEPENDENCIES_IN_IMAGE)
        install = _INSTALL.format(pip=pip, marker=_NOT_INSTALLED) if fetched.wheels else ""
        if own is not None:
            (context / "own" / own.folder).mkdir(parents=True)
            (context / "own" / own.folder / "METADATA").write_text(own.text(), encoding="utf-8")
            install += f"COPY own {DEPENDENCIES_IN_IMAGE}/\n"
        (context / "Dockerfile").write_text(f"FROM {base}\n{install}", encoding="utf-8")
        labels = {"coderefine.sandbox": "deps", _LEFT_OUT_LABEL: json.dumps(left_out)}
        try:
            _, log = client.images.build(path=str(context), tag=tag, network_mode="none", rm=True, labels=labels)
        except docker.errors.BuildError as error:
            raise EnvironmentProblem(
                f"could not install {project}'s dependencies in the sandbox (from {', '.join(found.sources)}): "
                f"{_install_error(error)}"
            ) from None
        not_installed = _not_installed(log)
        for line in not_installed:
            say(line)
        if not_installed:  # kept with the image, to be said at each use as the others are
            (context / "Dockerfile").write_text(f"FROM {tag}\n", encoding="utf-8")
            labels[_LEFT_OUT_LABEL] = json.dumps([*left_out, *not_installed])
            client.images.build(path=str(context), tag=tag, network_mode="none", rm=True, labels=labels)
    return tag


def _not_installed(log: Iterable[object]) -> list[str]:
    """The wheels the build could not install, each with pip's reason, as the build's log says them."""
    lines = [str(part.get("stream", "")) for part in log if isinstance(part, dict)]
    found = [line for text in lines for line in text.splitlines() if line.startswith(_NOT_INSTALLED)]
    said = [line[len(_NOT_INSTALLED) :].partition(": ") for line in found]
    return [
        f"the project's dependency {wheel} could not be installed in the sandbox"
        f" ({reason.removeprefix('ERROR: ').strip() or 'pip said nothing'}): left out"
        for wheel, _, reason in said
    ]


def _fetch(client: DockerClient, image: str, work: Path, target: Interpreter, found: Declared) -> Fetched:
    """Wheels of what `found` names, for `target`: those that cannot be had left out, each with
    where the project declares it."""
    work.mkdir()
    environment = _pip_environment()

    def build(requirement: str, into: Path) -> None:
        source_builds.build(client, image, requirement, target.version, target.pip_download(), into, environment)

    fetched = Fetcher(work, target, environment, build).fetch(found.requirements)
    left_out = tuple(replace(item, origin=found.origin(item.requirement)) for item in fetched.left_out)
    return replace(fetched, left_out=left_out)


def _install_error(error: BuildError) -> str:
    """pip's last error line in a failed build's log, rather than the command that ran it."""
    lines = [str(part.get("stream", "")) for part in error.build_log if isinstance(part, dict)]
    errors = [line.strip() for text in lines for line in text.splitlines() if line.startswith("ERROR:")]
    return errors[-1] if errors else str(error.msg)


def _pip_environment() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if _PIP_ENVIRONMENT.fullmatch(name)}
