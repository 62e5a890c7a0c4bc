"""Tavern Table: Tonk, Tőr, pagat Tonk and Three Towers."""

__version__ = "0.1.0"
