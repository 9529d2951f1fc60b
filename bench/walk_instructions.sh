#!/bin/sh
# What the receiver walk adds to the language layer's share of an index build, counted in
# instructions (valgrind's callgrind: the same on every run, unlike CPU time on a shared
# machine): bench_ts_targets.py --one with|without, one pass and three passes each way, the
# difference halved is one pass; the ratio of the two ways' passes is printed.
#
#     PYTHONPATH=src sh bench/walk_instructions.sh REPO LANGUAGE
#
# Needs valgrind (a development tool: apt-get install valgrind). Four runs under valgrind:
# about a minute and a half for a hundred files.
set -eu
[ $# -eq 2 ] || { echo "usage: walk_instructions.sh REPO LANGUAGE" >&2; exit 2; }
command -v valgrind > /dev/null || { echo "walk_instructions.sh: valgrind is not installed" >&2; exit 2; }
here=$(dirname "$0")
python=${PYTHON:-python}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {  # way, passes -> instructions of the whole process
  PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
    "$python" "$here/bench_ts_targets.py" "$1" --language "$2" --one "$3" --runs "$4" \
    > /dev/null 2> "$out/err" || { tail -3 "$out/err" >&2; exit 1; }
  awk '/^summary:/ {print $2}' "$out/cg"
}
w1=$(count "$1" "$2" with 1); w3=$(count "$1" "$2" with 3)
o1=$(count "$1" "$2" without 1); o3=$(count "$1" "$2" without 3)
awk -v w1="$w1" -v w3="$w3" -v o1="$o1" -v o3="$o3" 'BEGIN {
  w = (w3 - w1) / 2; o = (o3 - o1) / 2
  printf "per pass: with the walk %.1f M instructions, without %.1f M: %+.2f%%\n", w / 1e6, o / 1e6, (w / o - 1) * 100
}'
