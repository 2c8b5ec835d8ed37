"""The language of an answer from a request's headers (:mod:`api.language`)."""

from __future__ import annotations

from api.language import speaking


def test_every_accept_language_line_of_the_raw_headers_counts() -> None:
    # The app's middleware and the server's own answers each read the header their way.
    lines = [(b"host", b"x"), (b"accept-language", b"fr"), (b"accept-language", b"ja;q=0.5")]
    with speaking(lines) as spoken:
        assert spoken == "ja"
    with speaking([(b"accept-language", b"de, en;q=0.1")]) as spoken:
        assert spoken == "en"
    with speaking([]) as spoken:
        assert spoken == "en"
