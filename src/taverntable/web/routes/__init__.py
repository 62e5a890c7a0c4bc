"""The server's routes, a router per area (FastAPI's "bigger applications" layout): each module
declares its routes and what they depend on (``deps.py``), and ``create_app`` includes every
router of ``ROUTERS``. A new area (accounts) is a module here and one line below."""

from __future__ import annotations

from fastapi import APIRouter

from . import accounts, lobby, pages, records, replays, rules, tables, tutorial

ROUTERS: tuple[APIRouter, ...] = (
    lobby.router,
    tables.router,
    records.router,
    replays.router,
    accounts.router,
    rules.router,
    tutorial.router,
    pages.router,
)
