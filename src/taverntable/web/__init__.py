"""``tavern serve``: the game server (tables, seats, bots, reconnects, storage) and the browser
table. Needs the ``web`` extra (``pip install -e ".[web]"``)."""
