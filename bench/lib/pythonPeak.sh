#!/bin/sh
# A python3 for `--python` that appends its peak resident memory (KB) to $MTRL_BENCH_PYTHON_PEAK when it ends.
exec /usr/bin/time -f '%M' -a -o "$MTRL_BENCH_PYTHON_PEAK" python3 "$@"
