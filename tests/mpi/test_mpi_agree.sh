#!/usr/bin/env bash
# Ranks that run different studies stop before any case (run/rank_agreement.hpp,
# docs/mpi.md): an MPMD mpirun line whose second rank has another --set
# exits 2 with one error naming the first difference (the case and the
# field, each rank's value), and writes no record. Else: ranks with another
# count exited 0 with a mixed record, and other differences (repeat, the
# number of cases) left the ranks waiting for each other for ever.
# SKIP (77) when mpirun is missing.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/mpi_lib.sh"
cd "$work"

cat > md.yaml <<'YAML'
defaults: {repeat: 2, warmup: 0, timeout: 60}
datasets: [{dtype: f64, count: 1e5}]
formats: [raw, memory]
YAML

# two_ranks STATUS RANK1-ARGS...: rank 0 runs md.yaml as it is, rank 1 with
# the extra arguments; bounded, so a deadlock fails instead of hanging.
two_ranks() {
  local want=$1; shift
  expect_status "$want" timeout 120 "$mpirun" --oversubscribe \
    -np 1 "$FB" run md.yaml --no-console --json r.json : \
    -np 1 "$FB" run md.yaml --no-console --json r.json "$@"
}

rm -f r.json
two_ranks 2 --set datasets.0.count=1000
expect_in "$work/err" "the ranks do not run the same study: case 0 (f64-uniform-1e5 | raw): dataset.count is '1000' on rank 1 and '100000' on rank 0"
[ "$(grep -c 'do not run the same study' "$work/err")" = 1 ] || fail "the error is not printed once"
[ ! -e r.json ] || fail "a record was written for ranks that disagree"

two_ranks 2 --set repeat=3
expect_in "$work/err" "case 0 (f64-uniform-1e5 | raw): run.repeat is '3' on rank 1 and '2' on rank 0"

two_ranks 2 --set 'formats=[raw]'
expect_in "$work/err" "rank 1 plans 1 cases and rank 0 plans 2"

two_ranks 2 --filter memory
expect_in "$work/err" "case 0 (f64-uniform-1e5 | raw): selected (--filter, --exclude) is 'no' on rank 1 and 'yes' on rank 0"

# The control: the same study on both ranks runs.
two_ranks 0
python3 -c 'import json,sys; d=json.load(open("r.json")); assert [c["status"] for c in d["cases"]] == ["ok", "ok"] and d["context"]["ranks"] == 2, d["context"]' \
  || fail "the same study on two ranks"
echo "test_mpi_agree: ok"
