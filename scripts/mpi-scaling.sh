#!/bin/bash
# mpi-scaling.sh — issue 19's measurements of `mpirun impactsim patterns`
# (BENCHMARKS.md, "Per-rank construction"). Each rank's set-up time and
# peak resident set (VmHWM) come from the command's own summary lines
# ("set-up", "peak RSS"); each process's CPU time and peak RSS as a whole
# from /usr/bin/time; the ranks' per-step table (spheres, ghosts, bytes
# sent, step and communication ms) from the command.
#
#   scripts/mpi-scaling.sh setup BIN [BIN_BEFORE]   # set-up time and RSS per rank, 60,000 and 600,000 spheres, 1/2/4 ranks
#   scripts/mpi-scaling.sh weak BIN                 # weak scaling: 15,000 spheres per rank on 1/2/4 ranks
#
# BIN is an MPI build: CGO_ENABLED=1 go build -tags mpi -o impactsim-mpi ./cmd/impactsim
# REPEAT (default 3) runs of each; the medians go into BENCHMARKS.md.
# One rank runs the one-process path (no decomposition, no set-up line).
set -u
mode=${1:?setup or weak}; shift
bin=${1:?MPI build of impactsim}; shift
before=${1:-}
repeat=${REPEAT:-3}
out=${OUT:-/tmp/mpi-scaling}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() { # label np n cycles binary
	local label=$1 np=$2 n=$3 cycles=$4 b=$5
	echo "== $label np=$np n=$n cycles=$cycles loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
	mpirun --oversubscribe -np "$np" /usr/bin/time -f "process: user %U s sys %S s wall %e s maxrss %M KB" \
		"$b" patterns --pattern hexagons --n "$n" --cycles "$cycles" --sample-every 1000 --quiet --workers 1 \
		--out "$out/run-$label-$np-$n" 2>&1 | grep -E "set-up|peak RSS|process:|ranks|^ +[0-9]+ |s/step"
}
case $mode in
setup)
	# a few steps (0.02 periods = 4 steps at h = 3e-4): the set-up dominates
	for rep in $(seq "$repeat"); do
		for n in 60000 600000; do
			for np in 1 2 4; do
				run after "$np" "$n" 0.02 "$bin"
				[ -n "$before" ] && run before "$np" "$n" 0.02 "$before"
			done
		done
	done
	;;
weak)
	# 15,000 spheres per rank, 0.1 periods (21 steps) from the fresh layer
	for rep in $(seq "$repeat"); do
		for np in 1 2 4; do
			run weak "$np" $((15000 * np)) 0.1 "$bin"
		done
	done
	;;
*) echo "mode: setup or weak" >&2; exit 2 ;;
esac
