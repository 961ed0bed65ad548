#!/usr/bin/env bash
# cpu.sh fast|reset|show: the CPU frequency governor for benchmarking (like
# Node core's benchmark/cpu.sh). "fast" sets every CPU to "performance" and
# remembers the previous governors; "reset" puts them back; "show" prints them.
# Where there is no cpufreq (VMs, containers) or the governor is not writable
# (no root), it says so and exits 0: benchmarks still run, with a note that
# the frequency may vary. BENCHRIG_CPUFREQ_ROOT replaces /sys/devices/system/cpu
# (tests); BENCHRIG_CPU_STATE the file that keeps the previous governors.
set -u
root="${BENCHRIG_CPUFREQ_ROOT:-/sys/devices/system/cpu}"
state="${BENCHRIG_CPU_STATE:-${TMPDIR:-/tmp}/benchrig-cpu-governors}"
cmd="${1:-}"

usage() { echo "usage: cpu.sh fast|reset|show" >&2; exit 2; }
[ -n "$cmd" ] || usage

shopt -s nullglob
files=("$root"/cpu[0-9]*/cpufreq/scaling_governor)
if [ ${#files[@]} -eq 0 ]; then
  echo "cpu.sh: no CPU frequency governor here ($root/cpu*/cpufreq missing: a VM or container?); nothing to $cmd, the CPU frequency may vary between runs"
  exit 0
fi

set_governor() { # file governor
  if ! { echo "$2" > "$1"; } 2>/dev/null; then
    echo "cpu.sh: cannot write $1 (run as root, e.g. sudo ./cpu.sh $cmd); left as $(cat "$1")"
    return 1
  fi
}

case "$cmd" in
  show)
    for f in "${files[@]}"; do echo "$(basename "$(dirname "$(dirname "$f")")") $(cat "$f")"; done
    ;;
  fast)
    [ -f "$state" ] || for f in "${files[@]}"; do echo "$f $(cat "$f")"; done > "$state"
    failed=0
    for f in "${files[@]}"; do set_governor "$f" performance || failed=1; done
    [ $failed -eq 0 ] && echo "cpu.sh: ${#files[@]} CPU(s) set to performance"
    ;;
  reset)
    if [ ! -f "$state" ]; then
      echo "cpu.sh: no saved governors ($state); nothing to reset"
      exit 0
    fi
    failed=0
    while read -r f gov; do set_governor "$f" "$gov" || failed=1; done < "$state"
    [ $failed -eq 0 ] && rm -f "$state" && echo "cpu.sh: governors restored"
    ;;
  *) usage ;;
esac
exit 0
