"""The demo page and the <meldwise-hint> element in Japanese: every message of the
modules and of index.html has a Japanese translation with the same placeholders
(api/static/locale/ja.json), and the catalogue holds nothing else."""

from __future__ import annotations

import json
import re

from tests.api.web_messages import STATIC, web_messages

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_every_page_message_has_a_japanese_translation_with_the_same_placeholders() -> None:
    catalogue = json.loads((STATIC / "locale" / "ja.json").read_text())
    messages = web_messages()
    assert len(messages) > 100  # the extraction found the page's messages
    assert not sorted(messages - catalogue.keys()), "messages without a translation"
    assert not sorted(catalogue.keys() - messages), "translations of messages no longer used"
    for message, translation in catalogue.items():
        assert translation.strip(), message
        assert set(_PLACEHOLDER.findall(translation)) == set(_PLACEHOLDER.findall(message)), message
