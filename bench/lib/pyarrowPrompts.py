# What a user would script instead of `mtrl validate` on Parquet: pyarrow reads the prompt column, json.loads parses
# each prompt string. Prints the row count; exits 3 with a reason when pyarrow cannot be imported.
import json
import sys

try:
    import pyarrow.parquet as pq
except ImportError as error:
    print(f"pyarrow cannot be imported: {error}", file=sys.stderr)
    sys.exit(3)

rows = 0
for prompt in pq.read_table(sys.argv[1], columns=["prompt"]).column("prompt").to_pylist():
    json.loads(prompt)
    rows += 1
print(rows)
