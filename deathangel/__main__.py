"""``python -m deathangel``: the same command as the ``deathangel`` script."""

from deathangel.cli.app import main

if __name__ == "__main__":
    main()
