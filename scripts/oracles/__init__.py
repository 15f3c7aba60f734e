"""Independent computations that the tests and checks compare the engine with: pydraughts'
move generator (`pydraughts_bridge`; `crosscheck`, `pydraughts_perft`, `forced_win`,
`reachable_moves`), pydraughts' Hub client (`hub_pydraughts`), and a retrograde solver written
from docs/RULES.md alone (`kings_ending`)."""
