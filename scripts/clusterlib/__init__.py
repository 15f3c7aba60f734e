"""The cluster driver behind scripts/cluster.py (docs/CLUSTER.md): one module per concern.

stats (match statistics, standard library), runner (what a Ray task runs on its node), pool
(tasks in flight, retries, cancellation), session (Ray and the binary), and one module per
subcommand: matchjob, selfplayjob, egtbjob. The tests (test_*.py) need no Ray.
"""
