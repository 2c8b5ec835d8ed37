#!/usr/bin/env bash
# Rewrites constraints.txt with what a fresh `pip install -e '.[test]'` resolves today
# (the newest versions pyproject.toml allows), under the file's own comment lines.
# Run the test suite on them (README's test command) before committing the new file.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet -e '.[test]'
pins=$("$venv/bin/pip" freeze --exclude-editable)
{ grep '^#' constraints.txt; echo "$pins"; } > constraints.txt.new
mv constraints.txt.new constraints.txt
