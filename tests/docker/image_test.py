#!/usr/bin/python3
"""image_test.py PITH: build docker/Dockerfile without a Docker engine and probe the image.

No Docker engine runs on our build machines and no registry is reachable, so:
- the base image, debian:12-slim, is made with debootstrap from Debian's
  packages (minbase variant) and imported under the name the Dockerfile uses;
- podman builds docker/Dockerfile from the repository root with chroot
  isolation and vfs storage, which need no daemon, no overlay mounts and no
  user namespaces, and never pulls (--pull=never);
- the image's pithd is started with host networking on a free loopback port.

Then it checks that pithd runs as the image's user (uid 10001, not root),
answers /healthz, passes the image's own HEALTHCHECK command, extracts
tests/fixtures/article.html exactly as PITH (the host build's CLI) does, that
the image's `pith` CLI runs, and that SIGTERM stops pithd with exit status 0.
It also builds the compose example's scraper image (docker/scraper) and runs
it, as compose would, against that pithd: it crawls a loopback page and prints
the page's item with the same article.

Exit status 0 when every check passes, 1 when one fails; whatever is missing
(podman, debootstrap, root) fails the test with the reason. Needs root, as
rootful podman does; `make test-image` runs it with sudo when needed. Storage
lives in $PITH_IMAGE_DIR (default build-image/ at the repository root) and is
removed afterwards unless --keep is given; the debootstrap tarball is kept
there so that a second run skips it.
"""

import argparse
import http.server
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "support"))
from checklist import check, failures  # noqa: E402

BASE_IMAGE = "docker.io/library/debian:12-slim"  # what `FROM debian:12-slim` means
IMAGE = "localhost/pith/pithd:ci"
SCRAPER_IMAGE = "localhost/pith/scraper:ci"
CONTAINER = "pith-image-test"
IMAGE_UID = "10001"


class Podman:
    """podman with its own storage folder, so the test touches no other images."""

    def __init__(self, folder):
        self.prefix = ["podman", "--storage-driver", "vfs",
                       "--root", str(folder / "storage"), "--runroot", str(folder / "run")]

    def run(self, *args, check_status=True, capture=True, timeout=1800):
        done = subprocess.run(self.prefix + list(args), capture_output=capture, text=True,
                              timeout=timeout)
        if check_status and done.returncode != 0:
            raise RuntimeError(f"podman {' '.join(args[:2])} failed ({done.returncode}):\n"
                               + (done.stderr or "")[-3000:])
        return done


def make_base_image(podman, folder):
    if podman.run("image", "exists", BASE_IMAGE, check_status=False).returncode == 0:
        return
    tarball = folder / "debian-12-minbase.tar"
    if not tarball.exists():
        rootfs = folder / "rootfs"
        shutil.rmtree(rootfs, ignore_errors=True)
        started = time.monotonic()
        done = subprocess.run(["debootstrap", "--variant=minbase", "bookworm", str(rootfs),
                               "http://deb.debian.org/debian"],
                              capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            raise RuntimeError("debootstrap failed:\n" + (done.stdout + done.stderr)[-3000:])
        partial = tarball.with_suffix(".partial")
        subprocess.run(["tar", "-C", str(rootfs), "-cf", str(partial), "."], check=True)
        partial.rename(tarball)
        shutil.rmtree(rootfs)
        print(f"      debootstrap made the base in {time.monotonic() - started:.0f} s", flush=True)
    with open(tarball, "rb") as tar:
        done = subprocess.run(podman.prefix + ["import", "-", BASE_IMAGE], stdin=tar,
                              capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError("podman import failed:\n" + done.stderr[-3000:])


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def call(method, url, body=None, timeout=10):
    request = urllib.request.Request(url, data=body, method=method,
                                     headers={"Content-Type": "application/json"} if body else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def wait_healthy(base, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            status, _ = call("GET", base + "/healthz", timeout=2)
            if status == 200:
                return True
        except OSError:
            pass
        time.sleep(0.2)
    return False


def run_options():
    """What `podman run` needs on a sandboxed host, and why.

    The sandboxes our machines run in refuse crun's cgroup setup ("cgroups in
    hybrid mode not supported") and any resource limit they do not expect
    (podman's default process limit is refused), so runc is used, with file and
    process limits no higher than this process has and than pithd needs. The
    health check is run by hand below: podman would schedule it with systemd.
    """
    limits = []
    for name, kind in (("nofile", resource.RLIMIT_NOFILE), ("nproc", resource.RLIMIT_NPROC)):
        soft = resource.getrlimit(kind)[0]
        value = 4096 if soft == resource.RLIM_INFINITY else min(soft, 4096)
        limits += ["--ulimit", f"{name}={value}:{value}"]
    return ["--runtime", "runc", "--no-healthcheck", *limits]


def probe_image(podman, host_pith):
    image = json.loads(podman.run("image", "inspect", IMAGE).stdout)[0]
    user = image["Config"].get("User")
    check(user == f"{IMAGE_UID}:{IMAGE_UID}", f"the image runs as {IMAGE_UID}:{IMAGE_UID} (User is {user!r})")
    healthcheck = (image.get("Healthcheck") or {}).get("Test") or []
    check(healthcheck[:1] == ["CMD"], "the image keeps its HEALTHCHECK (docker format)")

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    # The compose file's hardening: read-only root, no capabilities, no new privileges.
    podman.run("rm", "--force", CONTAINER, check_status=False)
    try:
        podman.run("run", "-d", "--name", CONTAINER, *run_options(), "--network", "host",
                   "--read-only", "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
                   IMAGE, "--listen", f"127.0.0.1:{port}")
        if not check(wait_healthy(base, 30), "pithd in the image answers /healthz with 200"):
            print(podman.run("logs", CONTAINER, check_status=False).stderr[-2000:])
            return
        top = podman.run("top", CONTAINER, "user", "pid", "args").stdout.split("\n")
        pid1 = [line.split() for line in top[1:] if line.split()[1:2] == ["1"]]
        check(bool(pid1) and pid1[0][0] == "pith" and pid1[0][2] == "/usr/local/bin/pithd",
              f"pithd is PID 1 and runs as the user pith, not root ({top[1:2]})")
        uid = podman.run("exec", CONTAINER, "id", "-u").stdout.strip()
        check(uid == IMAGE_UID, f"commands in the container run as uid {IMAGE_UID} ({uid})")

        if healthcheck[:1] == ["CMD"]:
            # The HEALTHCHECK assumes port 8080; point it at the probe's port.
            rewritten = [part.replace("/8080", f"/{port}") for part in healthcheck[1:]]
            done = podman.run("exec", CONTAINER, *rewritten, check_status=False)
            check(done.returncode == 0, "the image's HEALTHCHECK command passes in the container")

        page = REPO / "tests" / "fixtures" / "article.html"
        body = json.dumps({"html": page.read_text(encoding="utf-8"),
                           "url": "https://example.org/article"}).encode()
        status, answer = call("POST", base + "/extract", body)
        article = json.loads(answer) if status == 200 else {}
        local = json.loads(subprocess.run(
            [host_pith, "extract", "--url", "https://example.org/article", str(page)],
            capture_output=True, text=True, check=True).stdout)
        check(status == 200 and article.get("status") == "ok",
              f"POST /extract answers 200 with an article ({status})")
        check(bool(article.get("textContent")) and article.get("title") == local["title"]
              and article.get("textContent") == local["textContent"],
              "the image's extraction is the host build's (title and text)")

        done = podman.run("run", "--rm", *run_options(), "--network", "none",
                          "--entrypoint", "/usr/local/bin/pith", IMAGE, "--version",
                          check_status=False)
        check(done.returncode == 0 and done.stdout.startswith("pith"),
              f"the image's pith CLI runs ({done.stdout.strip() or done.stderr.strip()})")

        check_scraper(podman, port, local)

        started = time.monotonic()
        podman.run("stop", "--time", "35", CONTAINER)
        state = json.loads(podman.run("inspect", CONTAINER).stdout)[0]["State"]
        check(state.get("ExitCode") == 0,
              f"SIGTERM stops pithd with exit status 0 in {time.monotonic() - started:.1f} s "
              f"(exit {state.get('ExitCode')})")
    finally:
        podman.run("rm", "--force", CONTAINER, check_status=False)


def check_scraper(podman, pithd_port, local):
    """The scraper image crawls a loopback copy of the fixture page through pithd."""
    page = (REPO / "tests" / "fixtures" / "article.html").read_bytes()

    class Site(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            found = self.path == "/article.html"
            body = page if found else b"<html><body><p>not here</p></body></html>"
            self.send_response(200 if found else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    try:
        done = podman.run("run", "--rm", *run_options(), "--network", "host", "--read-only",
                          "--tmpfs", "/tmp", "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
                          "--env", f"PITHD_URL=http://127.0.0.1:{pithd_port}", SCRAPER_IMAGE,
                          "-a", f"start_urls=http://127.0.0.1:{site.server_port}/article.html",
                          check_status=False, timeout=300)
    finally:
        site.shutdown()
    items = []
    for line in done.stdout.splitlines():
        try:
            items.append(json.loads(line))
        except ValueError:
            pass
    titles = [(item.get("article") or {}).get("title") for item in items]
    if not check(done.returncode == 0 and titles == [local["title"]],
                 f"the scraper image crawls a page through pithd and prints its article ({titles})"):
        print(done.stderr[-3000:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pith", help="the host build's pith CLI, to compare extractions")
    parser.add_argument("--keep", action="store_true",
                        help="keep the podman storage (images) for a rerun")
    parser.add_argument("--no-build", action="store_true",
                        help="probe the image a run with --keep built, without building it again")
    args = parser.parse_args()

    folder = Path(os.environ.get("PITH_IMAGE_DIR", REPO / "build-image")).resolve()
    missing = [tool for tool in ("podman", "runc", "debootstrap") if not shutil.which(tool)]
    if missing or os.geteuid() != 0:
        why = f"missing {', '.join(missing)}" if missing else "not root (rootful podman)"
        check(False, f"the image can be built here: {why}; `make test-image` installs and uses sudo")
        return 1
    folder.mkdir(parents=True, exist_ok=True)
    podman = Podman(folder)
    try:
        started = time.monotonic()
        if args.no_build:
            probe_image(podman, args.pith)
            return 1 if failures else 0
        make_base_image(podman, folder)
        # No layer cache: vfs copies the whole tree for each cached layer.
        build = podman.run("build", "--isolation", "chroot", "--format", "docker",
                           "--pull=never", "--layers=false",
                           "--ignorefile", str(REPO / "docker" / "Dockerfile.dockerignore"),
                           "-f", str(REPO / "docker" / "Dockerfile"), "-t", IMAGE, str(REPO),
                           check_status=False, timeout=3600)
        if not check(build.returncode == 0,
                     f"podman builds docker/Dockerfile ({time.monotonic() - started:.0f} s)"):
            print((build.stdout + build.stderr)[-4000:])
            return 1
        started = time.monotonic()
        build = podman.run("build", "--isolation", "chroot", "--format", "docker",
                           "--pull=never", "--layers=false",
                           "-f", str(REPO / "docker" / "scraper" / "Dockerfile"), "-t", SCRAPER_IMAGE,
                           str(REPO / "docker" / "scraper"), check_status=False, timeout=3600)
        if not check(build.returncode == 0,
                     f"podman builds docker/scraper/Dockerfile ({time.monotonic() - started:.0f} s)"):
            print((build.stdout + build.stderr)[-4000:])
            return 1
        probe_image(podman, args.pith)
    except (RuntimeError, subprocess.SubprocessError, OSError) as error:
        check(False, f"image test ran to the end: {error}")
    finally:
        if not args.keep:
            podman.run("rm", "--all", "--force", check_status=False)
            podman.run("rmi", "--all", "--force", check_status=False)
            shutil.rmtree(folder / "storage", ignore_errors=True)
            shutil.rmtree(folder / "run", ignore_errors=True)
    print(f"{len(failures)} failed" if failures else "image test passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
