"""The cluster driver, `python3 -m scripts.tools.cluster` (docs/CLUSTER.md): one module per
concern.

driver (the command line), stats (match statistics, standard library), runner (what a Ray
task runs on its node), pool (tasks in flight, retries, cancellation), session (Ray and the
binary), and one module per subcommand: matchjob, selfplayjob, egtbjob. The tests
(test_*.py) need no Ray: `python3 -m unittest discover -s scripts/tools/cluster -t .` from
the repository root.
"""
