#!/usr/bin/env bash
# CI step: build the real Dockerfile into an image and run that image, with no container engine
# and no access to container registries (docs/operations.md "Building the image without a
# registry", ADR 11).
#
#   bash scripts/image-ci.sh          (npm run image:ci; .ci/run runs it after the test suite)
#
# 1. Stand-ins for the Dockerfile's two base images, under their exact names, in a private
#    buildah store: `oven/bun:<version package-lock.json pins>` (a Debian bookworm rootfs made by
#    mmdebstrap plus the Bun binary of the npm package @oven/bun-linux-<arch>, checked against the
#    lockfile's integrity) and `gcr.io/distroless/base-nossl-debian12:nonroot` (glibc only, user
#    65532 "nonroot", no shell). They are cached between runs and rebuilt when their recipe
#    changes.
# 2. `buildah bud --isolation chroot --format docker --pull=never` of the real Dockerfile.
# 3. The image's config: user, entrypoint, health check, stop signal, port; no shell inside.
# 4. The image's root file system, mounted read-only in a private mount namespace, runs its
#    entrypoint as uid/gid 65532 with chroot on 127.0.0.1 and a free port: /v1/health and /docs
#    answer, the image's own HEALTHCHECK command exits 0 (run in the server's namespace, like
#    `docker exec`), SIGTERM makes it exit 0 in time, nothing is left running, nothing written.
#
# Prints PASS/FAIL per check and exits non-zero on any failure. Without buildah/mmdebstrap and no
# way to install them (not root, no apt-get), it prints SKIPPED and exits 0. Needs root (chroot,
# mounts). Environment: IMAGE_CI_CACHE (cache folder, default ~/.cache/network-tools-api-image-ci),
# IMAGE_CI_STARTS (how many timed starts, default 1), IMAGE_CI_KEEP=1 keeps the built image in the
# cache's store (otherwise it is removed at the end).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT_DIR=$PWD

STEP_STARTED=$(date +%s%N)
FAILURES=0
pass() { printf 'PASS: %s\n' "$*"; }
fail() {
  printf 'FAIL: %s\n' "$*"
  FAILURES=$((FAILURES + 1))
}
die() {
  printf 'FAIL: %s\n' "$*"
  exit 1
}
note() { printf '  %s\n' "$*"; }
skip() {
  printf '\n*** SKIPPED: image-ci: %s ***\n*** The container image was NOT built or run. ***\n\n' "$*"
  exit 0
}
ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }

# ---- tools ----------------------------------------------------------------------------------
[[ "$(uname -s)" == Linux ]] || skip "needs Linux (buildah, chroot, mount namespaces)"
[[ "$(id -u)" == 0 ]] || skip "needs root (chroot to uid 65532, mounts); run it as root, as CI does"
missing=()
for tool in buildah mmdebstrap; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if ((${#missing[@]} > 0)); then
  if command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian packages: ${missing[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
      skip "could not install ${missing[*]} with apt-get"
  else
    skip "${missing[*]} missing and no apt-get to install them (Debian: apt-get install buildah mmdebstrap)"
  fi
fi
for tool in curl unshare nsenter chroot mount; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is missing (curl, util-linux, coreutils)"
done

case "$(uname -m)" in
x86_64) BUN_PLATFORM=linux-x64 IMAGE_ARCH=amd64 ;;
aarch64) BUN_PLATFORM=linux-aarch64 IMAGE_ARCH=arm64 ;;
*) skip "no Bun stand-in recipe for $(uname -m)" ;;
esac

# ---- versions pinned by the repository -------------------------------------------------------
lock_field() { # lock_field <package path in package-lock.json> <field>
  node -e 'const l = require(process.argv[1]); const p = l.packages[process.argv[2]];
    if (!p || !p[process.argv[3]]) process.exit(1); console.log(p[process.argv[3]]);' \
    "$ROOT_DIR/package-lock.json" "$1" "$2"
}
BUN_VERSION=$(lock_field node_modules/bun version) || die "package-lock.json pins no bun version"
BUN_PACKAGE="@oven/bun-$BUN_PLATFORM"
BUN_INTEGRITY=$(lock_field "node_modules/$BUN_PACKAGE" integrity) ||
  die "package-lock.json has no integrity for $BUN_PACKAGE"
BUN_IMAGE="docker.io/oven/bun:$BUN_VERSION"
RUNTIME_IMAGE="gcr.io/distroless/base-nossl-debian12:nonroot"
APP_VERSION=$(node -p 'require("./package.json").version')
APP_IMAGE="localhost/network-tools-api:$APP_VERSION-ci"
SUITE=bookworm # Debian 12: what both base images are built on

# The Dockerfile must name exactly the images this script stands in for.
mapfile -t FROMS < <(grep -E '^FROM ' Dockerfile | awk '{print $2}')
[[ "${FROMS[0]:-}" == "oven/bun:$BUN_VERSION" ]] ||
  die "Dockerfile's build stage is FROM ${FROMS[0]:-?}, expected oven/bun:$BUN_VERSION (package-lock.json)"
[[ "${FROMS[1]:-}" == "$RUNTIME_IMAGE" && ${#FROMS[@]} == 2 ]] ||
  die "Dockerfile's runtime stage is FROM ${FROMS[1]:-?}, expected $RUNTIME_IMAGE as the last of two"
pass "Dockerfile's FROM lines are oven/bun:$BUN_VERSION and $RUNTIME_IMAGE"

# ---- a private buildah store under the cache folder -----------------------------------------
CACHE="${IMAGE_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/network-tools-api-image-ci}"
mkdir -p "$CACHE/downloads"
WORK=$(mktemp -d /tmp/image-ci.XXXXXX)
# overlay where the kernel has it (fast); vfs (full copies, slower) otherwise. A store keeps the
# driver it was made with, so the cache folder is per driver.
DRIVER=overlay
grep -qw overlay /proc/filesystems 2>/dev/null || modprobe overlay 2>/dev/null || DRIVER=vfs
BUILDAH=(buildah --root "$CACHE/storage-$DRIVER" --runroot "$WORK/runroot" --storage-driver "$DRIVER")
CONTAINERS=()
SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  for ctr in "${CONTAINERS[@]}"; do "${BUILDAH[@]}" rm "$ctr" >/dev/null 2>&1 || true; done
  if [[ "${IMAGE_CI_KEEP:-0}" != 1 ]]; then "${BUILDAH[@]}" rmi -f "$APP_IMAGE" >/dev/null 2>&1 || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "FAIL: image-ci stopped at line $LINENO: $BASH_COMMAND"' ERR

# Stand-in images carry a label with a hash of their recipe: a changed recipe rebuilds them.
RECIPE_LABEL=io.network-tools-api.image-ci.recipe
recipe_of() {
  {
    declare -f "$1" fetch_bun commit_rootfs
    printf '%s\n' "$SUITE" "$BUN_VERSION" "$BUN_INTEGRITY"
    cat /usr/local/share/ca-certificates/*.crt 2>/dev/null || true
  } | sha256sum | cut -c1-16
}
cached() { # cached <image> <recipe>: the store holds <image> built from <recipe>
  [[ "$("${BUILDAH[@]}" inspect --type image --format "{{index .Docker.Config.Labels \"$RECIPE_LABEL\"}}" "$1" 2>/dev/null)" == "$2" ]]
}
commit_rootfs() { # commit_rootfs <rootfs.tar> <image> <recipe> <buildah config options...>
  local tar=$1 image=$2 recipe=$3 ctr
  shift 3
  ctr=$("${BUILDAH[@]}" from scratch)
  CONTAINERS+=("$ctr")
  "${BUILDAH[@]}" add "$ctr" "$tar" / >/dev/null
  "${BUILDAH[@]}" config --os linux --arch "$IMAGE_ARCH" \
    --label "$RECIPE_LABEL=$recipe" "$@" "$ctr"
  "${BUILDAH[@]}" commit --quiet --format docker --rm "$ctr" "$image" >/dev/null
  CONTAINERS=("${CONTAINERS[@]/$ctr/}")
}

# The Bun runtime from the npm registry (the same package package-lock.json pins), verified.
fetch_bun() {
  local tarball="$CACHE/downloads/bun-$BUN_PLATFORM-$BUN_VERSION.tgz" expected actual
  expected=${BUN_INTEGRITY#sha512-}
  if [[ ! -f "$tarball" ]] || [[ "$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)" != "$expected" ]]; then
    (cd "$WORK" && npm pack --silent "$BUN_PACKAGE@$BUN_VERSION" >/dev/null)
    mv "$WORK/oven-bun-$BUN_PLATFORM-$BUN_VERSION.tgz" "$tarball"
  fi
  actual=$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)
  [[ "$actual" == "$expected" ]] || die "$BUN_PACKAGE@$BUN_VERSION does not match package-lock.json's integrity"
  tar -xzf "$tarball" -C "$WORK" package/bin/bun
  mv "$WORK/package/bin/bun" "$WORK/bun"
}

# oven/bun: like the official image (debian bookworm-slim, Bun at /usr/local/bin/bun, bunx link,
# user "bun" 1000, WORKDIR /home/bun/app), built from Debian's mirror and npm. It also trusts the
# CAs this machine added locally (/usr/local/share/ca-certificates, e.g. a TLS-inspecting egress
# proxy's), so that `bun install` in the build stage reaches the npm registry as the host does;
# only the build stage sees them, the runtime image takes nothing but the executable.
make_bun_standin() {
  local tar="$WORK/bun-rootfs.tar"
  fetch_bun
  mmdebstrap --quiet --variant=minbase --skip=output/dev --include=ca-certificates \
    --customize-hook="install -m 0755 '$WORK/bun' \"\$1/usr/local/bin/bun\"" \
    --customize-hook='ln -s bun "$1/usr/local/bin/bunx"' \
    --customize-hook='chroot "$1" groupadd --gid 1000 bun' \
    --customize-hook='chroot "$1" useradd --uid 1000 --gid bun --shell /bin/sh --create-home bun' \
    --customize-hook='install -d -o 1000 -g 1000 "$1/home/bun/app"' \
    --customize-hook='for ca in /usr/local/share/ca-certificates/*.crt; do [ -f "$ca" ] && cp "$ca" "$1/usr/local/share/ca-certificates/"; done; chroot "$1" update-ca-certificates >/dev/null 2>&1' \
    "$SUITE" "$tar" >/dev/null
  commit_rootfs "$tar" "$BUN_IMAGE" "$(recipe_of make_bun_standin)" \
    --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env BUN_RUNTIME_TRANSPILER_CACHE_PATH=0 --env BUN_INSTALL_BIN=/usr/local/bin \
    --workingdir /home/bun/app --cmd /usr/local/bin/bun
}

# distroless base-nossl nonroot: glibc (libc, libm, libdl, libpthread, the loader) and netbase's
# /etc files, users root/nonroot(65532)/nobody, /tmp, no shell, no package manager.
make_runtime_standin() {
  local dir="$WORK/runtime-rootfs" tar="$WORK/runtime-rootfs.tar"
  # The extract variant unpacks packages without running anything (and skips customize hooks).
  mmdebstrap --quiet --variant=extract --skip=output/dev --include=libc6,netbase "$SUITE" "$dir" >/dev/null
  rm -rf "$dir"/etc/{apt,fstab,hostname,resolv.conf} "$dir"/var/{lib/apt,cache/apt,log/apt} \
    "$dir"/usr/share/{doc,man,info,locale,lintian}
  printf '%s\n' root:x:0:0:root:/root:/sbin/nologin nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin \
    nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin >"$dir/etc/passwd"
  printf '%s\n' root:x:0: tty:x:5: staff:x:50: nobody:x:65534: nonroot:x:65532: >"$dir/etc/group"
  chmod 0644 "$dir/etc/passwd" "$dir/etc/group"
  install -d -m 1777 "$dir/tmp"
  install -d -m 0700 "$dir/root"
  install -d -m 0700 -o 65532 -g 65532 "$dir/home/nonroot"
  tar --numeric-owner -C "$dir" -cf "$tar" .
  commit_rootfs "$tar" "$RUNTIME_IMAGE" "$(recipe_of make_runtime_standin)" \
    --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --user 65532 --workingdir /home/nonroot
}

started=$(date +%s%N)
for pair in "make_bun_standin $BUN_IMAGE" "make_runtime_standin $RUNTIME_IMAGE"; do
  read -r maker image <<<"$pair"
  if cached "$image" "$(recipe_of "$maker")"; then
    pass "stand-in $image (cached in $CACHE)"
  else
    t=$(date +%s%N)
    "$maker"
    cached "$image" "$(recipe_of "$maker")" || die "stand-in $image was not stored"
    pass "stand-in $image built ($(ms_since "$t") ms)"
  fi
done
"${BUILDAH[@]}" rmi --prune >/dev/null 2>&1 || true # images left untagged by earlier recipes

# ---- 2. the real Dockerfile ------------------------------------------------------------------
t=$(date +%s%N)
if ! "${BUILDAH[@]}" bud --isolation chroot --format docker --pull=never --layers=false \
  --tag "$APP_IMAGE" --file Dockerfile . >"$WORK/build.log" 2>&1; then
  tail -40 "$WORK/build.log"
  die "buildah bud of Dockerfile (log above)"
fi
BUILD_MS=$(ms_since "$t")
pass "Dockerfile built with buildah bud --isolation chroot into $APP_IMAGE ($BUILD_MS ms)"

# ---- 3. the image's config -------------------------------------------------------------------
"${BUILDAH[@]}" inspect --type image "$APP_IMAGE" >"$WORK/inspect.json"
# cfg <json|lines> <field>: a field of the image's Docker config, as JSON or one element a line.
cfg() {
  node -e 'const [file, how, field] = process.argv.slice(1);
    const value = JSON.parse(require("fs").readFileSync(file, "utf8")).Docker.config[field] ?? null;
    if (how === "json") console.log(JSON.stringify(value));
    else for (const item of Array.isArray(value) ? value : Object.keys(value ?? {})) console.log(item);' \
    "$WORK/inspect.json" "$1" "$2"
}
expect_cfg() { # expect_cfg <field> <expected JSON>
  local actual
  actual=$(cfg json "$1")
  if [[ "$actual" == "$2" ]]; then pass "config $1 is $2"; else fail "config $1 is $actual, expected $2"; fi
}
expect_cfg User '"65532:65532"'
expect_cfg Entrypoint '["/usr/local/bin/network-tools-api"]'
expect_cfg Healthcheck '{"Test":["CMD","/usr/local/bin/network-tools-api","healthcheck"],"Interval":15000000000,"Timeout":5000000000,"StartPeriod":10000000000,"Retries":3}'
expect_cfg StopSignal '"SIGTERM"'
expect_cfg ExposedPorts '{"3000/tcp":{}}'
mapfile -t ENTRYPOINT < <(cfg lines Entrypoint)
mapfile -t IMAGE_ENV < <(cfg lines Env)
mapfile -t HEALTHCHECK < <(node -e 'console.log(JSON.parse(process.argv[1]).Test.join("\n"))' "$(cfg json Healthcheck)")
[[ "${HEALTHCHECK[0]:-}" == CMD ]] || fail "health check must be exec form (CMD), the image has no shell"
HEALTHCHECK=("${HEALTHCHECK[@]:1}")
((${#ENTRYPOINT[@]} > 0)) || die "the image has no entrypoint"

# ---- 4. the root file system -----------------------------------------------------------------
CTR=$("${BUILDAH[@]}" from --pull=never "$APP_IMAGE")
CONTAINERS+=("$CTR")
RFS=$("${BUILDAH[@]}" mount "$CTR")
IMAGE_BYTES=$(du -sb "$RFS" | cut -f1)
IMAGE_MIB=$(awk -v b="$IMAGE_BYTES" 'BEGIN { printf "%.1f", b / 1048576 }')
EXE_BYTES=$(stat -c %s "$RFS${ENTRYPOINT[0]}")
pass "image size $IMAGE_MIB MiB ($IMAGE_BYTES bytes, of which the executable $((EXE_BYTES / 1048576)) MiB); store reports $(
  "${BUILDAH[@]}" images --format '{{.Size}}' "$APP_IMAGE"
)"

shells=()
for shell in sh bash dash ash busybox; do
  for dir in bin usr/bin sbin usr/sbin usr/local/bin; do
    [[ -e "$RFS/$dir/$shell" || -L "$RFS/$dir/$shell" ]] && shells+=("/$dir/$shell")
  done
done
if ((${#shells[@]} == 0)); then pass "no shell in the runtime image (/bin/sh absent)"; else fail "shell(s) in the runtime image: ${shells[*]}"; fi
perm=$(stat -c '%u:%g %a' "$RFS${ENTRYPOINT[0]}")
if [[ "$perm" == "0:0 555" ]]; then pass "${ENTRYPOINT[0]} is root-owned, mode 555"; else fail "${ENTRYPOINT[0]} is $perm, expected 0:0 555"; fi
if grep -q '^nonroot:x:65532:65532:' "$RFS/etc/passwd"; then pass "/etc/passwd names uid 65532 nonroot"; else fail "/etc/passwd lacks nonroot 65532"; fi

# Mount points a container runtime would create in the container's writable layer.
mkdir -p "$RFS/proc" "$RFS/dev"
MARKER="$WORK/marker"
touch "$MARKER"
sleep 1 # file times have coarse granularity on some file systems

free_port() {
  local port
  for _ in $(seq 50); do
    port=$((20000 + RANDOM % 30000))
    curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/" || [[ $? != 7 ]] || { echo "$port"; return; }
  done
  return 1
}

# The image's environment plus HOST/PORT, as uid/gid 65532, in a private mount namespace where
# the root file system is read-only and has /proc and a minimal /dev. Every step execs the next,
# so the pid of a command started with it is the pid of the program in the image.
in_image() { # in_image <port>: sets IN_IMAGE, the command prefix
  IN_IMAGE=(env -i "${IMAGE_ENV[@]}" HOST=127.0.0.1 "PORT=$1" LOG_LEVEL=info
    unshare --mount --propagation private -- /bin/bash -c '
      set -e
      root=$1
      shift
      mount --bind "$root" "$root"
      mount -o remount,bind,ro "$root"
      mount -t proc -o nosuid,nodev,noexec proc "$root/proc"
      mount -t tmpfs -o nosuid,noexec,mode=755,size=64k tmpfs "$root/dev"
      for node in null zero full random urandom; do
        touch "$root/dev/$node"
        mount --bind "/dev/$node" "$root/dev/$node"
      done
      exec chroot --userspec=65532:65532 "$root" "$@"
    ' image-ci "$RFS")
}

PORT=$(free_port) || die "no free port found"
in_image "$PORT"
status=0
"${IN_IMAGE[@]}" "${HEALTHCHECK[@]}" >/dev/null 2>&1 || status=$?
if [[ "$status" == 1 ]]; then pass "health check exits 1 while nothing listens"; else fail "health check exited $status with nothing listening (expected 1)"; fi

# start → first 200 on /v1/health; the server's pid is that of unshare (each step execs).
start_server() {
  : >"$WORK/server.log"
  local started
  started=$(date +%s%N)
  in_image "$PORT"
  "${IN_IMAGE[@]}" "${ENTRYPOINT[@]}" >>"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  while :; do
    if [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$PORT/v1/health")" == 200 ]]; then
      START_MS=$(ms_since "$started")
      return 0
    fi
    kill -0 "$SERVER_PID" 2>/dev/null || return 1
    (($(ms_since "$started") < 20000)) || return 1
    sleep 0.005
  done
}

stop_server() { # SIGTERM; sets STOP_STATUS and STOP_MS
  local started
  started=$(date +%s%N)
  kill -TERM "$SERVER_PID"
  for _ in $(seq 300); do
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.05
  done
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    STOP_STATUS=timeout
  else
    STOP_STATUS=0
    wait "$SERVER_PID" || STOP_STATUS=$?
  fi
  STOP_MS=$(ms_since "$started")
}

leftovers() { # processes whose root is the image's root file system
  local link
  for link in /proc/[0-9]*/root; do
    [[ "$(readlink "$link" 2>/dev/null)" == "$RFS" ]] && echo "${link#/proc/}" | cut -d/ -f1
  done
  return 0
}

STARTS=()
for run in $(seq "${IMAGE_CI_STARTS:-1}"); do
  PORT=$(free_port) || die "no free port found"
  if ! start_server; then
    tail -20 "$WORK/server.log"
    die "the entrypoint did not answer 200 on /v1/health within 20 s (run $run; log above)"
  fi
  STARTS+=("$START_MS")
  pass "run $run: ${ENTRYPOINT[*]} as 65532:65532 on a read-only root answered /v1/health 200 after $START_MS ms"

  if ((run == 1)); then
    owner=$(stat -c %u "/proc/$SERVER_PID")
    if [[ "$owner" == 65532 ]]; then pass "the server process runs as uid 65532"; else fail "the server process runs as uid $owner"; fi
    root_mount=$(awk '$5 == "/" { print $6 }' "/proc/$SERVER_PID/mountinfo")
    if [[ ",$root_mount," == *,ro,* ]]; then pass "its root file system is mounted read-only ($root_mount)"; else fail "its root file system is mounted '$root_mount'"; fi
    body=$(curl -s --max-time 5 "http://127.0.0.1:$PORT/v1/health")
    if [[ "$body" == *'"status":"ok"'* ]]; then pass "/v1/health says ok"; else fail "/v1/health body: $body"; fi
    docs=$(curl -s -o "$WORK/docs.html" -w '%{http_code} %{content_type}' --max-time 5 "http://127.0.0.1:$PORT/docs")
    if [[ "$docs" == "200 text/html"* ]] && grep -qi '<html' "$WORK/docs.html"; then
      pass "/docs answers 200 HTML"
    else
      fail "/docs answered '$docs'"
    fi
    # Like `docker exec`: the image's HEALTHCHECK command in the server's mount namespace and root.
    status=0
    env -i PORT="$PORT" HOST=127.0.0.1 nsenter --target "$SERVER_PID" --mount --root --wd \
      --setgid 65532 --setuid 65532 -- "${HEALTHCHECK[@]}" >/dev/null 2>&1 || status=$?
    if [[ "$status" == 0 ]]; then pass "HEALTHCHECK command (${HEALTHCHECK[*]}) exits 0"; else fail "HEALTHCHECK command exited $status"; fi
  fi

  stop_server
  if [[ "$STOP_STATUS" == 0 ]]; then
    pass "run $run: SIGTERM → exit 0 after $STOP_MS ms"
  else
    tail -20 "$WORK/server.log"
    fail "run $run: SIGTERM → exit $STOP_STATUS after $STOP_MS ms (log above)"
  fi
  SERVER_PID=""
  left=$(leftovers)
  if [[ -n "$left" ]]; then
    fail "run $run: still running in the image: pids $left"
  elif curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/v1/health"; then
    fail "run $run: port $PORT still answers after the stop"
  else
    pass "run $run: nothing left running in the image, port $PORT closed"
  fi
done

written=$(find "$RFS" -xdev -newer "$MARKER" ! -path "$RFS/proc" ! -path "$RFS/dev" -print | head -5)
if [[ -z "$written" ]]; then pass "nothing written to the image's file system"; else fail "written during the runs: $written"; fi

sorted=$(printf '%s\n' "${STARTS[@]}" | sort -n)
median=$(sed -n "$(((${#STARTS[@]} + 1) / 2))p" <<<"$sorted")
echo
echo "image-ci figures: image $IMAGE_MIB MiB; build $BUILD_MS ms; start → first 200 on /v1/health: median $median ms of ${#STARTS[@]} (all: ${STARTS[*]}); whole step $(ms_since "$STEP_STARTED") ms"
if ((FAILURES > 0)); then
  echo "image-ci: $FAILURES check(s) FAILED"
  exit 1
fi
echo "image-ci: all checks passed"
if [[ "${IMAGE_CI_KEEP:-0}" == 1 ]]; then
  # The exact store (its folder is per storage driver) and image name, so the export works as printed.
  echo "image-ci: kept $APP_IMAGE; export it for 'docker load' with:"
  echo "  buildah --root '$CACHE/storage-$DRIVER' --storage-driver $DRIVER push $APP_IMAGE docker-archive:/tmp/network-tools-api.tar:network-tools-api:$APP_VERSION"
fi
