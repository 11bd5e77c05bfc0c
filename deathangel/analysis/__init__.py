"""Analysis: exact odds, simulations with statistics, and speed benchmarks — the tools that
play or enumerate many games and summarise them."""
