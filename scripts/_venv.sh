# Shared by scripts/run, scripts/test and scripts/check: make .venv and install the project into it.
# Usage: . scripts/_venv.sh EXTRAS   (EXTRAS like "" or "[test]")
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
stamp=".venv/.installed$1"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".$1"
    touch "$stamp"
fi
export PATH="$root/.venv/bin:$PATH"
