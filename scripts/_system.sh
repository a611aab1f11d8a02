# Shared by scripts/test: the parts outside Python that the tests drive, installed when missing.
#   - Debian's chromium (the browser tests' Chromium, /usr/bin/chromium) and a Japanese font, so
#     screenshots show the Japanese texts;
#   - Debian's postgresql, whose server the store tests start and stop themselves;
#   - axe-core from the npm registry, injected into the page by the accessibility test.
set -euo pipefail
packages=()
[ -x /usr/bin/chromium ] || packages+=(chromium)
dpkg -s fonts-ipafont-gothic >/dev/null 2>&1 || packages+=(fonts-ipafont-gothic)
# PostgreSQL's server binaries: the store tests start a private server from them (tests/pg_server.py).
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || packages+=(postgresql)
if [ ${#packages[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "scripts/test: installing ${packages[*]} with apt" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y -qq "${packages[@]}" >/dev/null \
        || { $sudo apt-get update -qq && $sudo apt-get install -y -qq "${packages[@]}" >/dev/null; }
fi
axe_version="4.14.1"
axe=".cache/npm/node_modules/axe-core/axe.min.js"
if [ ! -f "$axe" ] || ! grep -q "\"version\": \"$axe_version\"" .cache/npm/node_modules/axe-core/package.json; then
    echo "scripts/test: installing axe-core $axe_version from npm" >&2
    npm install --silent --no-audit --no-fund --prefix .cache/npm "axe-core@$axe_version" >/dev/null
fi
