"""Where the engine is, for every script: the repository and what `cargo build --release` makes
in it, wherever a script is run from."""

import os

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_ROOT = os.path.dirname(SCRIPTS)
# What `cargo build --release` makes: the engine and its CheckerBoard library.
RELEASE_BINARY = os.path.join(REPO_ROOT, "target", "release", "crownhead")
RELEASE_LIBRARY = os.path.join(REPO_ROOT, "target", "release", "libcrownhead.so")
