"""What an account's name and password must be, and how a password is kept.

A display name follows the rule of every player name (``taverntable.names``: text, no control
characters) and is unique on the server in its *folded* form (``name_key``): Unicode's NFKC,
case folded, accents, invisible characters and spaces dropped, and the letters of other scripts
that look like Latin ones (Cyrillic ``а``, Greek ``ο`` …) and the digits that pass for letters
(``0``, ``1``) read as those letters, so that nobody signs up as a look-alike of a name already
taken. A password is 8 to 128 characters, not the name and not one of the common passwords
shipped in ``data/common-passwords.txt``. Passwords are hashed with argon2id (``argon2-cffi``,
RFC 9106's parameters); every refusal has a code a page says in its own language.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from taverntable.names import name_problem

MIN_NAME = 2
MAX_NAME = 32
MIN_PASSWORD = 8
MAX_PASSWORD = 128

# Letters of other scripts drawn like Latin ones, and digits read as letters: a name's key
# holds the Latin letter, so "Аnna" (Cyrillic А) is "anna".
LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "з": "3",
        "і": "i",
        "ї": "i",
        "ј": "j",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "ѕ": "s",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        # Greek
        "α": "a",
        "β": "b",
        "ε": "e",
        "η": "n",
        "ι": "i",
        "κ": "k",
        "μ": "u",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        # digits and signs that pass for letters
        "0": "o",
        "1": "l",
        "|": "l",
        "$": "s",
        "@": "a",
    }
)


@dataclass(frozen=True)
class Refusal(Exception):
    """A name or a password refused: ``code`` for the page's translation, ``message`` in
    English."""

    code: str
    message: str

    def __str__(self) -> str:
        return self.message


def name_key(name: str) -> str:
    """The folded form two names share when they look alike (see the module's docstring)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = unicodedata.normalize("NFD", text)
    kept = "".join(
        ch for ch in text if unicodedata.category(ch) not in ("Mn", "Me", "Cf") and not ch.isspace()
    )
    return unicodedata.normalize("NFC", kept).translate(LOOK_ALIKES)


def check_name(name: str) -> str:
    """The display name, trimmed; Refusal when it cannot be an account's."""
    why = name_problem(name.strip())  # a control character is refused, not made a space
    if why is not None:
        raise Refusal("name-bad", why)
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise Refusal("name-too-long", f"a display name has at most {MAX_NAME} characters")
    if len(name_key(name)) < MIN_NAME:
        raise Refusal("name-too-short", f"a display name has at least {MIN_NAME} letters")
    return name


def check_password(password: str, name: str) -> None:
    """Refusal unless ``password`` may be the password of ``name``."""
    if len(password) < MIN_PASSWORD:
        raise Refusal("password-too-short", f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise Refusal("password-too-long", f"a password has at most {MAX_PASSWORD} characters")
    folded = password.casefold()
    if folded in common_passwords():
        raise Refusal("password-common", "this password is one of the most common ones")
    if name_key(password) == name_key(name):
        raise Refusal("password-is-name", "a password cannot be the name")


@cache
def common_passwords() -> frozenset[str]:
    """The shipped list of common passwords, case folded."""
    text = files("taverntable.web").joinpath("data/common-passwords.txt").read_text("utf-8")
    return frozenset(
        line.strip().casefold() for line in text.splitlines() if line.strip() and line[0] != "#"
    )


@cache
def _hasher() -> PasswordHasher:
    return PasswordHasher()  # argon2id, RFC 9106's low-memory profile


def hash_password(password: str) -> str:
    """An argon2id hash (``$argon2id$…``), with its own salt and parameters."""
    return _hasher().hash(password)


def verify_password(stored: str, password: str) -> bool:
    try:
        return _hasher().verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


@cache
def decoy_hash() -> str:
    """A hash no password matches well: an unknown name is checked against it, so that it
    takes as long as a wrong password (the answer does not tell whether a name exists)."""
    return hash_password("a decoy password nobody has")
