"""The one-time token (``nonce`` field) of the forms that save or create: the round form, the
new-session and import forms, and the forms that change a saved game (a round's edit, its delete,
What if's Apply).  Signed with the app's secret key, so a form from an old page or another server
is told apart, and saved with what it saved (``referee.store.add_round``,
``referee.store.create_sessions_once``, ``referee.store.change``), so the same form posted again
saves once.

Below the views: must not import them.
"""

from __future__ import annotations

import secrets

from flask import current_app, request
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


def posted_nonce() -> str | None:
    """The posted form's token when this app issued it; None for a missing or forged one (which is
    not trusted: the form then saves as if it had none)."""
    nonce = request.form.get("nonce") if request.method == "POST" else None
    return nonce if nonce_ok(nonce) else None


def form_nonce() -> str:
    """The token a creating form is shown with: the one it was posted with (a form sent back with an
    error keeps it, so fixing it and posting again still creates once), else a fresh one."""
    return posted_nonce() or new_nonce()
