"""`python3 -m scripts.tools.cluster match|selfplay|egtb ...`: the cluster driver (driver.py)."""

import sys

from scripts.tools.cluster.driver import main

# Exit 1 when any job was lost: the result is then incomplete (the report says what).
sys.exit(1 if main().lost else 0)
