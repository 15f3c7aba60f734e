"""Helpers the scripts share: `engine` (a crownhead process over its text protocols) and `venv`
(virtual environments from the requirements files)."""
