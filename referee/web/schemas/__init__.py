"""The JSON API's request and response schemas (pydantic), and the validator that uses them.

One source for both: ``validation.validate(...)`` (spectree) checks every request body against
the models of ``inputs`` before a view runs, and ``/api/v1/openapi.json`` is generated from the
same models and routes (``validation.document``), so the document cannot drift from what the
server accepts.  Responses are checked against the models of ``outputs`` while the app is under
test (``app.testing``).

- ``inputs``: what a request may send (``RoundIn``, ``NewSessionIn``...);
- ``outputs``: what the API answers (``SessionOut``, ``ErrorOut``...);
- ``validation``: the validator, the error messages that name the field, the OpenAPI document.

Must not import the views.
"""
