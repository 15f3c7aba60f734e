"""Helpers the scripts share: `engine` (where the engine is) and `venv` (virtual environments
from the requirements files)."""
