"""The terminal front end: a board that reads at a glance, menus of the engine's legal
options, and the play/replay loops. It only renders decisions and returns options; every
rule stays in the engine."""
