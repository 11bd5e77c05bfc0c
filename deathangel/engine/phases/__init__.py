"""The four phases of a round and the travel step, one module each (RULES §5–§10)."""
