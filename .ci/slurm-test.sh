#!/bin/bash
# slurm-test.sh: a real one-node Slurm cluster on this machine runs
# docs/scale-out.md's job-array script, unchanged, for a 3-shard standard
# run; the merge must be byte-identical to an unsharded run. Run it as root
# (make test-slurm). It installs slurm-wlm with apt-get when missing, keeps
# every daemon's state in a private directory, and stops the daemons by
# their pid files whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	echo "installing: slurm-wlm"
	$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq slurm-wlm >/dev/null
fi
state=$(mktemp -d /tmp/longcraft-slurm.XXXXXX)
chmod 755 "$state"
stop() {
	for pid in "$state"/slurmd.pid "$state"/slurmctld.pid "$state"/munged.pid; do
		[ -s "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
	done
	sleep 1
	for pid in "$state"/slurmd.pid "$state"/slurmctld.pid "$state"/munged.pid; do
		[ -s "$pid" ] && kill -9 "$(cat "$pid")" 2>/dev/null || true
	done
	if [ "${KEEP_SLURM_STATE:-}" = "" ]; then rm -rf "$state"; else echo "slurm state kept in $state"; fi
}
trap stop EXIT
log() { echo "slurm-test: $(date +%T) $*"; }

# munge: the key, socket, pid, log and seed all in the state directory.
mkdir -p "$state/munge"
dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
chmod 700 "$state/munge"
chmod 400 "$state/munge/munge.key"
socket="$state/munge/munge.socket"
munged --force --key-file="$state/munge/munge.key" --socket="$socket" \
	--pid-file="$state/munged.pid" --log-file="$state/munge/munged.log" --seed-file="$state/munge/munged.seed"
log "munged up"

host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2/1024) - 512}' /proc/meminfo)
mkdir -p "$state/spool/ctld" "$state/spool/d" "$state/log"
cat > "$state/slurm.conf" <<CONF
ClusterName=longcraft-ci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldPort=16817
SlurmdPort=16818
StateSaveLocation=$state/spool/ctld
SlurmdSpoolDir=$state/spool/d
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MaxArraySize=64
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$state/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
	if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then break; fi
	sleep 0.5
done
sinfo
log "cluster up: node $host, $cpus CPUs, ${mem} MB"

# The binary the array script calls, on the PATH the job inherits.
mkdir -p "$state/bin"
go build -o "$state/bin/longcraft" ./cmd/longcraft
export PATH="$state/bin:$PATH"

# docs/scale-out.md's array script, byte for byte: the first sh block of
# its Slurm section. --array on the command line picks 3 shards.
work="$state/work"
mkdir -p "$work"
awk '/^## Slurm job array/ {s=1} s && /^```sh$/ {b=1; next} b && /^```$/ {exit} b {print}' docs/scale-out.md > "$work/array.sh"
grep -q 'srun longcraft score' "$work/array.sh" || { echo "could not extract the array script from docs/scale-out.md"; exit 1; }
cd "$work"
start=$(date +%s)
log "sbatch --wait --array=0-2 array.sh"
sbatch --wait --array=0-2 --output="$work/slurm-%A_%a.out" array.sh
log "array done in $(( $(date +%s) - start ))s"
for f in "$work"/slurm-*.out; do echo "== $f"; tail -3 "$f"; done
sacct >/dev/null 2>&1 || true
longcraft merge --out runs/standard/all runs/standard/shard-*
log "merged; now the same run unsharded"
longcraft score --suite standard --agent planner --out runs/standard/whole --quiet
for f in results.jsonl summary.json report.html run.json; do
	cmp "runs/standard/all/$f" "runs/standard/whole/$f"
	log "merge and unsharded run: $f identical"
done
log "ok: 3-shard standard run on Slurm merged byte-identical to the unsharded run ($(( $(date +%s) - start ))s)"
