"""What a user runs beside the engine's own commands: speed and time-use measurements
(`speed`, `time_use`), endgame starts from played games (`endgame_starts`), and the Ray
cluster driver (`cluster`)."""
