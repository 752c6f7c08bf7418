#!/usr/bin/env bash
# docker-up.sh - make a Docker engine and the offline test base image available.
#
# Run as root on Debian 12 (developer machine or CI, no systemd, no registry
# access). Idempotent: every step is skipped when its result is already there.
#
#   1. installs Debian's docker.io, busybox-static and runsc (gVisor) when
#      missing, and registers runsc with the engine in /etc/docker/daemon.json;
#   2. starts dockerd in the background when nothing answers on the socket
#      (no bridge, no iptables: tests only use --network none or host), or
#      makes a running one reload daemon.json (SIGHUP) when it lacks runsc;
#   3. builds sandbox-factory/test-base:latest offline with `docker import`
#      from static busybox + the host's git and perl (perl-base: what the
#      egress listener needs) and their shared libraries, and rebuilds it only
#      when the recipe hash (this script, git, perl and busybox versions)
#      changes;
#   4. checks that a `--runtime runsc` container runs (falling back to gVisor's
#      ptrace platform when the default one does not work on this machine);
#   5. prints one summary line.
#
# Environment knobs (all optional):
#   SANDBOX_TEST_IMAGE    image reference to build   (sandbox-factory/test-base:latest)
#   DOCKERD_LOG           dockerd log file            (/var/log/dockerd.log)
#   DOCKERD_WAIT_SECONDS  how long to wait for dockerd (60)
#   DOCKERD_FLAGS         flags for dockerd, replacing the built-in list of attempts
#   DOCKER_UP_FORCE_BUILD=1  rebuild the image even if the recipe is unchanged
set -euo pipefail

IMAGE="${SANDBOX_TEST_IMAGE:-sandbox-factory/test-base:latest}"
DOCKERD_LOG="${DOCKERD_LOG:-/var/log/dockerd.log}"
DOCKERD_WAIT_SECONDS="${DOCKERD_WAIT_SECONDS:-60}"
LABEL_TEST_IMAGE="io.sandboxfactory.test-image"
LABEL_RECIPE="io.sandboxfactory.recipe"
# Busybox applets the sandbox relies on (run directly by `docker exec`, so they
# must exist as files in /bin); checked in the image after each build.
REQUIRED_APPLETS="sh ps kill base64 sha256sum realpath stat find mkfifo timeout setsid sleep cat dd"

# dockerd, iptables, runc live in sbin; CI's PATH may not have it.
export PATH="${PATH:-/usr/bin:/bin}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

SELF="$(readlink -f "${BASH_SOURCE[0]}")"

say() { echo "docker-up: $*" >&2; }
# The end of the dockerd log, from the last start this script made on.
log_tail() {
  [ -f "$DOCKERD_LOG" ] || return 0
  awk '/^=== docker-up:/ { buf = "" } { buf = buf $0 "\n" } END { printf "%s", buf }' "$DOCKERD_LOG" \
    | tail -n 30 >&2 || true
}
die() { echo "docker-up: ERROR: $*" >&2; exit 1; }

is_root() { [ "$(id -u)" -eq 0 ]; }

# Serialise concurrent runs (two builds, two dockerds) when we can.
if is_root && { [ -d /var/lock ] || mkdir -p /var/lock 2>/dev/null; }; then
  LOCK_FILE=/var/lock/docker-up.lock
else
  LOCK_FILE="${TMPDIR:-/tmp}/docker-up.$(id -u).lock"
fi
exec 9>"$LOCK_FILE" || die "cannot open the lock file $LOCK_FILE"
flock -w 600 9 || die "another docker-up.sh run has held $LOCK_FILE for more than 600 s"

# ---------------------------------------------------------------------------
# 1. packages
# ---------------------------------------------------------------------------
pkg_installed() {
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = installed ]
}

missing=()
# /usr/local/bin/docker (client only) may exist already: look for the daemon.
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
pkg_installed busybox-static && [ -x /bin/busybox ] || missing+=(busybox-static)
command -v git >/dev/null 2>&1 || missing+=(git)
[ -x /usr/bin/perl ] || missing+=(perl-base)
[ -x /usr/bin/runsc ] || missing+=(runsc)
if [ "${#missing[@]}" -gt 0 ]; then
  is_root || die "missing ${missing[*]}; run this script as root (it installs them with apt-get)"
  say "installing ${missing[*]} (apt-get)"
  apt-get -o DPkg::Lock::Timeout=300 update -qq >/dev/null \
    || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
  command -v dockerd >/dev/null 2>&1 || die "dockerd still missing after installing docker.io"
fi

# The gVisor runtime, registered in daemon.json (read at start, and on SIGHUP by
# a running dockerd). runsc's own network stack refuses to run here ("cannot
# run with network enabled in root network namespace"), so it uses the network
# namespace Docker gives the container (--network=host): loopback only for
# `--network none`, as with runc.
DAEMON_JSON=/etc/docker/daemon.json
RUNSC_ARGS_DEFAULT='"--network=host"'
RUNSC_ARGS_PTRACE='"--network=host", "--platform=ptrace"'

write_runsc_runtime() { # runtimeArgs-json-items
  local args="$1"
  mkdir -p "$(dirname "$DAEMON_JSON")"
  if ! [ -s "$DAEMON_JSON" ]; then
    cat >"$DAEMON_JSON" <<JSON
{
  "runtimes": {
    "runsc": {
      "path": "/usr/bin/runsc",
      "runtimeArgs": [$args]
    }
  }
}
JSON
    return 0
  fi
  grep -qF "[$args]" "$DAEMON_JSON" && return 0
  # An existing file: set the runtime in it, keeping the rest.
  command -v python3 >/dev/null 2>&1 \
    || die "$DAEMON_JSON exists and python3 is missing to set the runsc runtime in it; add \"runtimes\": {\"runsc\": {\"path\": \"/usr/bin/runsc\", \"runtimeArgs\": [$args]}} yourself"
  python3 - "$DAEMON_JSON" "[$args]" <<'PY'
import json, sys
path, args = sys.argv[1], json.loads(sys.argv[2])
with open(path) as f:
    config = json.load(f)
config.setdefault("runtimes", {})["runsc"] = {"path": "/usr/bin/runsc", "runtimeArgs": args}
with open(path, "w") as f:
    json.dump(config, f, indent=2)
    f.write("\n")
PY
}

engine_knows_runsc() { docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q '"runsc"'; }

# Makes a running dockerd read daemon.json again (it reloads runtimes without a restart).
reload_engine() {
  local pid
  pid="$(cat /var/run/docker.pid 2>/dev/null || true)"
  [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null || true)" = dockerd ] \
    || die "the engine needs to reload $DAEMON_JSON and no dockerd pid was found; restart dockerd"
  say "reloading dockerd (pid $pid) for the runsc runtime"
  kill -HUP "$pid"
}

# Waits (bounded) until `check` succeeds.
await() { # seconds check...
  local deadline=$(( $(date +%s) + $1 ))
  shift
  until "$@"; do
    [ "$(date +%s)" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}

if is_root; then
  if grep -q -- '--platform=ptrace' "$DAEMON_JSON" 2>/dev/null; then
    write_runsc_runtime "$RUNSC_ARGS_PTRACE"
  else
    write_runsc_runtime "$RUNSC_ARGS_DEFAULT"
  fi
fi

# ---------------------------------------------------------------------------
# 2. engine
# ---------------------------------------------------------------------------
engine_answers() { timeout 10 docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

# A pid file left by a dockerd/containerd that was killed: remove it unless the
# pid in it still is that program (a recycled pid would make dockerd refuse to
# start, or make it adopt a stranger as its containerd).
drop_stale_pidfile() { # file program
  local file="$1" prog="$2" pid
  [ -f "$file" ] || return 0
  pid="$(cat "$file" 2>/dev/null || true)"
  if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null || true)" = "$prog" ]; then
    return 0
  fi
  rm -f "$file"
}

# Flags tried in order. No bridge and no iptables: the tests only use the
# `none` and `host` networks, these flags work on hosts with or without
# iptables/bridge support, and the engine leaves the host firewall alone
# (with iptables on it would set the FORWARD policy to DROP).
DOCKERD_ATTEMPTS=(
  "--iptables=false --bridge=none"
  "--iptables=false --bridge=none --storage-driver=vfs"
)
if [ -n "${DOCKERD_FLAGS:-}" ]; then
  DOCKERD_ATTEMPTS=("$DOCKERD_FLAGS")
fi

wait_for_engine() { # pid-or-empty deadline ; 0 = answers, 1 = dockerd died, 2 = timeout
  local pid="$1" deadline="$2"
  while :; do
    engine_answers && return 0
    if [ -n "$pid" ] && ! [ -d "/proc/$pid" ]; then
      engine_answers && return 0
      return 1
    fi
    [ "$(date +%s)" -lt "$deadline" ] || return 2
    sleep 0.5
  done
}

start_engine() {
  local deadline flags pid rc running=""
  deadline=$(( $(date +%s) + DOCKERD_WAIT_SECONDS ))

  pid="$(cat /var/run/docker.pid 2>/dev/null || true)"
  if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null || true)" = dockerd ]; then
    running="$pid"
  fi

  if ! is_root; then
    if [ -n "$running" ] && [ -S /var/run/docker.sock ] && ! [ -w /var/run/docker.sock ]; then
      die "dockerd runs but $(id -un) may not use /var/run/docker.sock; run as root or join the docker group"
    fi
    [ -n "$running" ] || die "nothing answers on /var/run/docker.sock and starting dockerd needs root; run this script as root"
  fi

  # A dockerd may still be starting up: wait for it instead of launching a
  # second one on the same data root.
  if [ -n "$running" ]; then
    say "dockerd (pid $running) is running but not answering yet; waiting"
    if wait_for_engine "$running" "$deadline"; then return 0; fi
    say "dockerd did not answer within ${DOCKERD_WAIT_SECONDS}s; last lines of $DOCKERD_LOG:"
    log_tail
    exit 1
  fi

  mkdir -p "$(dirname "$DOCKERD_LOG")"
  for flags in "${DOCKERD_ATTEMPTS[@]}"; do
    drop_stale_pidfile /var/run/docker.pid dockerd
    drop_stale_pidfile /var/run/docker/containerd/containerd.pid containerd
    say "starting dockerd $flags (log: $DOCKERD_LOG)"
    echo "=== docker-up: $(date -u +%FT%TZ) dockerd $flags" >>"$DOCKERD_LOG"
    # setsid -w: own session (a Ctrl-C or the end of the caller's process
    # group does not reach it), and $! stays a live pid while dockerd runs.
    # 9>&-: the daemon must not inherit (and so hold forever) our lock.
    # shellcheck disable=SC2086  # flags are words on purpose
    setsid -w nohup dockerd $flags </dev/null >>"$DOCKERD_LOG" 2>&1 9>&- &
    pid=$!
    rc=0
    wait_for_engine "$pid" "$deadline" || rc=$?
    case "$rc" in
      0) return 0 ;;
      1) say "dockerd $flags exited early" ;;
      2) break ;;
    esac
  done
  say "the Docker engine did not come up; last lines of $DOCKERD_LOG:"
  log_tail
  exit 1
}

engine_answers || start_engine
if ! engine_knows_runsc; then
  is_root || die "the engine lacks the runsc runtime; run this script as root to register it"
  reload_engine
  await 30 engine_knows_runsc || die "dockerd did not pick up the runsc runtime from $DAEMON_JSON within 30s"
fi

# ---------------------------------------------------------------------------
# 3. test base image
# ---------------------------------------------------------------------------
GIT_BIN="$(command -v git)"
GIT_BIN="$(readlink -f "$GIT_BIN")"
BUSYBOX=/bin/busybox
PERL_BIN=/usr/bin/perl
# perl-base's module tree (IO::Socket::INET for the egress listener of a
# session without network) without its Unicode tables (3.7 MB, unused by it).
PERL_LIB="$("$PERL_BIN" -MIO::Socket::INET -e '($_ = $INC{"IO/Socket/INET.pm"}) =~ s{/IO/Socket/INET\.pm$}{}; print')"

recipe_hash() {
  {
    cat "$SELF"
    "$GIT_BIN" --version
    "$BUSYBOX" --help 2>&1 | sed -n 1p
    "$PERL_BIN" -e 'print "perl $^V\n"'
    dpkg-query -W -f='${Package} ${Version}\n' git perl-base busybox-static libc6 2>/dev/null || true
  } | sha256sum | cut -d' ' -f1
}

image_label() { # label
  docker image inspect --format "{{ index .Config.Labels \"$1\" }}" "$IMAGE" 2>/dev/null || true
}

# Copy a shared library (as listed by ldd) into the root, under its soname,
# in the directory it really lives in on the host (the root carries the
# host's /lib -> usr/lib style links, so both spellings resolve).
copy_lib() { # root libpath
  local root="$1" lib="$2" dir
  dir="$(readlink -f "$(dirname "$lib")")"
  [ -e "$root$dir/$(basename "$lib")" ] && return 0
  mkdir -p "$root$dir"
  cp -L "$lib" "$root$dir/"
}

is_elf() { [ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' \n')" = '177ELF' ]; }

make_rootfs() { # root
  local root="$1" d f
  chmod 0755 "$root"

  # Same top-level layout as the host (merged /usr: /bin -> usr/bin, ...).
  for d in bin sbin lib lib32 lib64 libx32; do
    if [ -L "/$d" ]; then
      mkdir -p "$root/$(readlink "/$d")"
      ln -s "$(readlink "/$d")" "$root/$d"
    elif [ -d "/$d" ] || [ "$d" = bin ] || [ "$d" = sbin ]; then
      mkdir -p "$root/$d"
    fi
  done
  mkdir -p "$root/usr/bin" "$root/usr/sbin" "$root/usr/lib" "$root/usr/share" \
           "$root/etc" "$root/root" "$root/workspace" "$root/tmp" "$root/var/tmp" \
           "$root/run" "$root/proc" "$root/sys" "$root/dev"
  chmod 1777 "$root/tmp" "$root/var/tmp"
  chmod 0700 "$root/root"

  # git: the binary, its helpers (upload-pack & co.), its exec dir and templates.
  cp -a "$GIT_BIN" "$root/usr/bin/git"
  for f in git-receive-pack git-upload-pack git-upload-archive git-shell; do
    [ -e "/usr/bin/$f" ] && cp -a "/usr/bin/$f" "$root/usr/bin/$f"
  done
  cp -a /usr/lib/git-core "$root/usr/lib/"
  [ -d /usr/share/git-core ] && cp -a /usr/share/git-core "$root/usr/share/"

  # perl: the listener that turns a sandbox's TCP connections to the egress
  # proxy into connections of the factory's channel (EgressListener).
  cp -a "$PERL_BIN" "$root/usr/bin/perl"
  mkdir -p "$root$PERL_LIB"
  tar -C "$PERL_LIB" --exclude=./unicore -cf - . | tar -C "$root$PERL_LIB" -xf -

  # Every shared library ldd lists for git, perl and their ELF files (git-core,
  # perl's XS modules), the dynamic loader included.
  {
    echo "$GIT_BIN"
    echo "$PERL_BIN"
    [ -e /usr/bin/git-shell ] && echo /usr/bin/git-shell
    find /usr/lib/git-core -type f
    find "$PERL_LIB" -type f -name '*.so'
  } | while read -r f; do
    is_elf "$f" || continue
    { ldd "$f" 2>/dev/null || true; } | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'
  done | sort -u | while read -r lib; do
    copy_lib "$root" "$lib"
  done

  # busybox (static) and its applets; never shadow a real program (git...).
  cp "$BUSYBOX" "$root/bin/busybox"
  chmod 0755 "$root/bin/busybox"
  for f in $("$BUSYBOX" --list); do
    [ "$f" = busybox ] && continue
    [ -e "$root/bin/$f" ] || [ -L "$root/bin/$f" ] || ln -s busybox "$root/bin/$f"
  done
  [ -L "$root/bin/sh" ] || [ -e "$root/bin/sh" ] || ln -s busybox "$root/bin/sh"

  cat >"$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
EOF
  cat >"$root/etc/group" <<'EOF'
root:x:0:
nogroup:x:65534:
EOF
  cat >"$root/etc/nsswitch.conf" <<'EOF'
passwd: files
group: files
hosts: files
EOF
  # Bind-mounted repositories may belong to another uid than the container's.
  cat >"$root/etc/gitconfig" <<'EOF'
[safe]
	directory = *
EOF
  : >"$root/etc/hosts"
  : >"$root/etc/resolv.conf"
  chmod 0644 "$root/etc/passwd" "$root/etc/group" "$root/etc/nsswitch.conf" \
             "$root/etc/gitconfig" "$root/etc/hosts" "$root/etc/resolv.conf"
}

build_image() { # hash
  local hash="$1" root new_id start
  start=$(date +%s)
  root="$(mktemp -d "${TMPDIR:-/tmp}/docker-up-rootfs.XXXXXX")"
  # shellcheck disable=SC2064  # expand now
  trap "rm -rf '$root'" EXIT
  make_rootfs "$root"

  tar -C "$root" --numeric-owner --owner=0 --group=0 -cf - . \
    | docker import \
        --change "LABEL $LABEL_TEST_IMAGE=1 $LABEL_RECIPE=$hash" \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'ENV HOME=/root' \
        --change 'CMD ["/bin/sh","-c","trap \"exit 0\" TERM INT; while :; do sleep 3600 & wait $!; done"]' \
        - "$IMAGE" >/dev/null
  rm -rf "$root"
  trap - EXIT

  # Smoke test: git and perl's listener module load, and the applets the sandbox needs are there.
  docker run --rm --network none "$IMAGE" sh -c "
      git --version >/dev/null || exit 1
      perl -MIO::Socket::INET -e 1 || exit 1
      for a in $REQUIRED_APPLETS; do [ -x /bin/\$a ] || { echo missing applet \$a; exit 1; }; done
    " >&2 || die "the freshly built $IMAGE does not work"

  new_id="$(docker image inspect --format '{{.Id}}' "$IMAGE")"
  # Earlier builds, now untagged; prune keeps any that a container still uses.
  docker image prune -f --filter "label=$LABEL_TEST_IMAGE=1" >/dev/null 2>&1 || true
  say "built $IMAGE (${new_id:7:12}) in $(( $(date +%s) - start ))s"
}

HASH="$(recipe_hash)"
if [ "${DOCKER_UP_FORCE_BUILD:-0}" != 1 ] && [ "$(image_label "$LABEL_RECIPE")" = "$HASH" ]; then
  :
else
  build_image "$HASH"
fi

# ---------------------------------------------------------------------------
# 4. gVisor
# ---------------------------------------------------------------------------
runsc_runs() { timeout 60 docker run --rm --runtime runsc --network none "$IMAGE" true >/dev/null 2>&1; }
if ! runsc_runs; then
  is_root || die "a --runtime runsc container does not run; run this script as root to try gVisor's ptrace platform"
  say "a runsc container does not run with gVisor's default platform; trying --platform=ptrace"
  write_runsc_runtime "$RUNSC_ARGS_PTRACE"
  reload_engine
  await 30 runsc_runs \
    || die "a --runtime runsc container does not run, even with --platform=ptrace: docker run --rm --runtime runsc --network none $IMAGE true"
fi

# ---------------------------------------------------------------------------
# 5. summary
# ---------------------------------------------------------------------------
VERSION="$(docker version --format '{{.Server.Version}} {{.Server.APIVersion}}')"
echo "docker-up: engine ${VERSION% *} (API ${VERSION#* }), runtimes $(docker info --format '{{range $name, $r := .Runtimes}}{{$name}} {{end}}'), image $IMAGE ready"
