"""Tavern Table: Tonk, Tőr, Pagat Tonk and Three Towers."""

__version__ = "0.1.0"
