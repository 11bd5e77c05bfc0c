"""Tournaments: strategies compared on paired seeds over a grid of player counts and teams —
the config, a worker's batch, the SQLite results, running on processes or Dask, the
statistics (Wilson, Newcombe, McNemar, SPRT), the report and its plots, replaying a stored
game."""
