"""Crownhead's Python scripts, by role; run each as a module from the repository root:

    python3 -m scripts.oracles.crosscheck --positions 300

ci/        checks that CI runs on the built engine and library
oracles/   independent implementations the tests and checks compare the engine with
tools/     what a user runs: measurements, endgame starts, the Ray cluster driver
training/  the evaluation's trainers (the network, the hand-written terms)
lib/       shared helpers: the engine client, the virtual environments
web/, windows/   the browser and the Windows builds' checks (.ci/web.sh, .ci/page.sh,
           .ci/windows.sh)
"""
