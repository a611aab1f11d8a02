# Shared by scripts/run and scripts/test: Pyodide, the Python the browser's worker plays offline with
# (docs/web.md, "Offline"), from the npm registry with npm, pinned here, into .cache/pyodide (never
# committed).  The server serves it from its own origin.  Without npm the game still plays online: run
# says so; test needs it (the offline browser tests run it) and stops.
pyodide_version="314.0.8"
pyodide_dir=".cache/pyodide/node_modules/pyodide"
if [ ! -f "$pyodide_dir/pyodide.asm.wasm" ] || ! grep -q "\"version\": \"$pyodide_version\"" "$pyodide_dir/package.json"; then
    if command -v npm >/dev/null 2>&1; then
        echo "installing Pyodide $pyodide_version from npm for offline play (once, about 14 MB)..." >&2
        mkdir -p .cache/pyodide
        if ! npm install --silent --no-audit --no-fund --prefix .cache/pyodide "pyodide@$pyodide_version" >/dev/null; then
            echo "could not install Pyodide with npm: the game plays online only" >&2
            [ "${PYRAMID_OFFLINE_REQUIRED:-0}" = 1 ] && exit 1
        fi
    else
        echo "npm is not installed: the game plays online only (apt-get install npm, then run again, for offline play)" >&2
        [ "${PYRAMID_OFFLINE_REQUIRED:-0}" = 1 ] && exit 1
    fi
fi
