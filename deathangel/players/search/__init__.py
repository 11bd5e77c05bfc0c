"""The ``mcts`` strategy: information-set Monte Carlo tree search over deals of what the seat
cannot see (``mcts``), the value it backs up from a position (``value``), and a small greedy
policy (``greedy``)."""
