# Shared by scripts/run, scripts/test and scripts/check: make .venv and install the project into it.
# Usage: . scripts/_venv.sh EXTRAS   (EXTRAS like "" or "[test]"; the "native" extra is always added)
# Then compiles the engine's and solver's hot modules with mypyc when their sources changed
# (src/pyramid_solitaire/native.py says how a stale build is never run).  A failed build leaves the
# package pure Python and slower; with PYRAMID_NATIVE_REQUIRED=1 (scripts/test) it stops here.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
case "$1" in
    "") extras="[native]" ;;
    *) extras="${1%]},native]" ;;
esac
stamp=".venv/.installed$extras"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".$extras"
    touch "$stamp"
fi
if ! .venv/bin/python -m pyramid_solitaire.build_native --status >/dev/null; then
    echo "compiling the solver with mypyc (once per change, about 20 s)..." >&2
    if ! .venv/bin/python -m pyramid_solitaire.build_native --log .cache/native-build.log \
            && [ "${PYRAMID_NATIVE_REQUIRED:-0}" = 1 ]; then
        exit 1
    fi
fi
export PATH="$root/.venv/bin:$PATH"
