#!/usr/bin/env bash
# Builds Crownhead for the browser from a fresh clone: the wasm32 target and the wasm-bindgen
# CLI (pinned to the version of the wasm-bindgen crate in web/engine/Cargo.toml, installed
# under web/.tools) if missing, then the engine crate (web/engine/) as WebAssembly, its
# JavaScript glue and the worker script, all into web/dist/. The last line printed is that
# folder's path. Everything in web/dist/ is made here from the sources; nothing is hand-edited.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dist="$root/web/dist"
tools="$root/web/.tools"

if command -v rustup >/dev/null 2>&1; then
    if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
        rustup target add wasm32-unknown-unknown >&2
    fi
fi

# The CLI must be the crate's exact version: their generated glue and the wasm must agree.
version=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' web/engine/Cargo.toml)
if [ -z "$version" ]; then
    echo "build_web.sh: no pinned wasm-bindgen version in web/engine/Cargo.toml" >&2
    exit 1
fi
bindgen="$tools/bin/wasm-bindgen"
if ! { [ -x "$bindgen" ] && [ "$("$bindgen" --version)" = "wasm-bindgen $version" ]; }; then
    echo "build_web.sh: installing wasm-bindgen-cli $version into $tools" >&2
    # --locked uses the CLI's own lock file; when a registry mirror lacks one of its exact
    # versions, the newest compatible ones are taken (the CLI itself stays at $version).
    # --debug: an unoptimised CLI compiles in well under half the time (172 s of CPU here
    # against several minutes), and it only rewrites one small .wasm, in a second or two.
    cargo install wasm-bindgen-cli --version "=$version" --root "$tools" --locked --debug >&2 ||
        cargo install wasm-bindgen-cli --version "=$version" --root "$tools" --debug >&2
fi

# From the crate's folder, so that its .cargo/config.toml (SIMD) applies.
(cd web/engine && cargo build --release --locked --target wasm32-unknown-unknown >&2)
rm -rf "$dist"
mkdir -p "$dist"
"$bindgen" --target web --no-typescript --out-dir "$dist" --out-name crownhead_web \
    web/engine/target/wasm32-unknown-unknown/release/crownhead_web.wasm
# Binaryen's optimiser (npm's build of it, pinned) makes the engine about a third faster in V8
# and 12% smaller; it keeps every value, so searches are unchanged (the browser tests check the
# bench's node counts against the native engine's).
binaryen=132.0.0
wasm_opt="$tools/npm/node_modules/.bin/wasm-opt"
if command -v npm >/dev/null 2>&1; then
    if ! [ -x "$wasm_opt" ] || ! grep -q "\"version\": \"$binaryen\"" "$tools/npm/node_modules/binaryen/package.json"; then
        echo "build_web.sh: installing binaryen $binaryen (wasm-opt) into $tools/npm" >&2
        npm install --prefix "$tools/npm" --no-audit --no-fund "binaryen@$binaryen" >&2
    fi
    "$wasm_opt" -O3 --enable-simd --enable-bulk-memory --enable-sign-ext \
        --enable-nontrapping-float-to-int --enable-mutable-globals --enable-multivalue \
        --enable-reference-types "$dist/crownhead_web_bg.wasm" -o "$dist/crownhead_web_bg.wasm"
else
    echo "build_web.sh: no npm, so no wasm-opt: the engine is about a third slower" >&2
fi
cp web/worker/crownhead-worker.js "$dist/"
ls -l "$dist" >&2
echo "$dist"
