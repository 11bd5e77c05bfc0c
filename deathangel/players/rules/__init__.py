"""The ``rules`` strategy: rule files (TOML) scored against every option, no Python needed —
the player and its compiled rule sets (``player``), reading rule files (``file``), their
expression language (``expr``), the values rules read (``features`` computes them, ``vocab``
names them), and the shipped rule files (``rulesets/``, package data)."""
