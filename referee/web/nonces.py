"""The round form's one-time token (its ``nonce`` field): signed with the app's secret key, so a
form from an old page or another server is told apart, and saved with the round it saved
(``referee.store.add_round``), so the same form posted again saves once.

Below the views: must not import them.
"""

from __future__ import annotations

import secrets

from flask import current_app
from itsdangerous import BadSignature, URLSafeSerializer


def sign_nonce(secret_key: str, seed: str) -> str:
    """A round form's one-time token: ``seed`` signed with the app's secret key."""
    return URLSafeSerializer(secret_key, salt="round-form").dumps(seed)


def new_nonce() -> str:
    """A fresh one-time token for a round entry form."""
    return sign_nonce(current_app.secret_key, secrets.token_urlsafe(12))


def nonce_ok(nonce: str | None) -> bool:
    """Whether ``nonce`` is a token this app issued (a missing or forged one is not)."""
    if not nonce or len(nonce) > 200:
        return False
    try:
        URLSafeSerializer(current_app.secret_key, salt="round-form").loads(nonce)
    except BadSignature:
        return False
    return True
