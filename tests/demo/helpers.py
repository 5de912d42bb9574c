"""Fetching and decoding demo pages the way a careful client would."""

from __future__ import annotations

import re
import urllib.request

from lxml import html as lxml_html


def fetch(url: str) -> tuple[int, str, bytes]:
    """(status, content type, body) of a GET on the demo server."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


def decode(content_type: str, body: bytes) -> str:
    """Decode by the declared charset: header first, then <meta>, else UTF-8."""
    match = re.search(r"charset=([\w-]+)", content_type)
    if not match:
        match = re.search(rb"<meta[^>]+charset=[\"']?([\w-]+)", body[:2048])
        charset = match.group(1).decode() if match else "utf-8"
    else:
        charset = match.group(1)
    return body.decode(charset)


def page_tree(url: str) -> lxml_html.HtmlElement:
    status, ctype, body = fetch(url)
    assert status == 200, f"{url} answered {status}"
    return lxml_html.fromstring(decode(ctype, body), base_url=url)


def text_of(node: lxml_html.HtmlElement) -> str:
    return " ".join(node.text_content().split())
