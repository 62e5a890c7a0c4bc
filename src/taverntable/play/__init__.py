"""Playing in the terminal: ``tavern play GAME`` against bots."""
