#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the shard tests and for trying
# `sbatch --array` with benchrig before a real cluster.
#
# Usage: scripts/slurm-local.sh start|stop|status|env
#   start   installs slurm-wlm and munge when missing (Debian/Ubuntu, as root),
#           writes a munge key and a slurm.conf for this host (`hostname -s`,
#           `nproc` CPUs), starts munged, slurmctld and slurmd; does nothing
#           more when they already run (idempotent)
#   stop    ends the daemons this script started (by the pid files it wrote)
#   status  says which of them run, and prints `sinfo` when the cluster is up
#   env     prints `export SLURM_CONF=...`: eval "$(scripts/slurm-local.sh env)"
#
# Everything lives in one folder, $BENCHRIG_SLURM_DIR (default
# /tmp/benchrig-slurm): config, munge key and socket, state, spool, logs, pid
# files. Nothing is written to /etc, so a system-wide Slurm or munge (if any)
# is left alone; client commands find this cluster through SLURM_CONF.
# Ports: $BENCHRIG_SLURM_PORT (slurmctld, default 6817) and the next one (slurmd).
# The daemons run as the calling user (SlurmUser=that user): tests run as root.
set -euo pipefail

DIR=${BENCHRIG_SLURM_DIR:-/tmp/benchrig-slurm}
PORT=${BENCHRIG_SLURM_PORT:-6817}
CONF=$DIR/slurm.conf
export SLURM_CONF=$CONF
export PATH=$PATH:/usr/sbin:/sbin

log () { echo "slurm-local: $*" >&2; }

# pid of a daemon we started, when it still runs
running_pid () {
  local f=$DIR/$1.pid
  [ -s "$f" ] || return 1
  local pid
  pid=$(cat "$f")
  kill -0 "$pid" 2>/dev/null || return 1
  # a reused pid would belong to another program: check the name
  grep -q "$1" "/proc/$pid/comm" 2>/dev/null || return 1
  echo "$pid"
}

install_missing () {
  local missing=()
  command -v slurmctld >/dev/null 2>&1 || missing+=(slurm-wlm)
  command -v munged >/dev/null 2>&1 || missing+=(munge)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    log "missing ${missing[*]}: install these Debian/Ubuntu packages (as root: apt-get install ${missing[*]})"
    exit 1
  fi
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # the packages may start system-wide daemons on the default paths; ours use
  # their own folder and do not need them, so leave them as the package set them
}

write_config () {
  local host cpus user
  host=$(hostname -s)
  cpus=$(nproc)
  user=$(id -un)
  mkdir -p "$DIR/state" "$DIR/spool" "$DIR/munge" "$DIR/log"
  chmod 700 "$DIR/munge"
  if [ ! -s "$DIR/munge/munge.key" ]; then
    # munge wants 1024 bytes or more of secret; the key is this cluster's own
    dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none
    chmod 600 "$DIR/munge/munge.key"
  fi
  cat > "$CONF.tmp" <<EOF
# Written by benchrig scripts/slurm-local.sh: a one-node cluster on $host, reached on
# 127.0.0.1 (a CI machine's host name may not resolve).
ClusterName=benchrig
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/munge.socket
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
# no cgroups: containers and CI machines rarely delegate them
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=300
InactiveLimit=0
KillWait=5
MinJobAge=300
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
  mv "$CONF.tmp" "$CONF"
}

wait_for () {
  local what=$1; shift
  for _ in $(seq 1 100); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  log "$what did not come up; see $DIR/log"
  return 1
}

node_ready () {
  local state
  state=$(sinfo -h -N -o '%t' 2>/dev/null | head -n1)
  case "$state" in idle*|mix*|alloc*) return 0 ;; *) return 1 ;; esac
}

start () {
  install_missing
  if running_pid munged >/dev/null && running_pid slurmctld >/dev/null && running_pid slurmd >/dev/null; then
    log "already running ($DIR)"
    echo "export SLURM_CONF=$CONF"
    return 0
  fi
  write_config
  if ! running_pid munged >/dev/null; then
    # --force: munged refuses some setups (running as root, a key outside
    # /etc/munge) that are fine for a private test cluster
    munged --force --key-file="$DIR/munge/munge.key" --socket="$DIR/munge/munge.socket" \
      --pid-file="$DIR/munged.pid" --log-file="$DIR/log/munged.log" --seed-file="$DIR/munge/seed"
    wait_for munged test -S "$DIR/munge/munge.socket"
  fi
  if ! running_pid slurmctld >/dev/null; then
    # -c: a fresh state each start (no jobs left from an earlier run)
    slurmctld -c -f "$CONF"
    wait_for slurmctld scontrol ping
  fi
  if ! running_pid slurmd >/dev/null; then
    slurmd -f "$CONF"
  fi
  # a node left DOWN by an earlier stop comes back with ReturnToService=2;
  # resume it in case it does not
  scontrol update NodeName="$(hostname -s)" State=RESUME >/dev/null 2>&1 || true
  wait_for "the node" node_ready
  log "up: $(sinfo -h -o '%P %a %D %C' | head -n1) (partition avail nodes cpus A/I/O/T)"
  echo "export SLURM_CONF=$CONF"
}

stop () {
  local name pid
  for name in slurmd slurmctld munged; do
    if pid=$(running_pid "$name"); then
      kill "$pid"
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
      log "stopped $name ($pid)"
    fi
    rm -f "$DIR/$name.pid"
  done
}

status () {
  local name pid up=0
  for name in munged slurmctld slurmd; do
    if pid=$(running_pid "$name"); then echo "$name: running ($pid)"; up=$((up + 1)); else echo "$name: stopped"; fi
  done
  if [ "$up" -eq 3 ]; then
    sinfo
    return 0
  fi
  return 3
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  env) echo "export SLURM_CONF=$CONF" ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
