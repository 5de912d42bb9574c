"""A page's title and the site's own name: only a host's registrable name (the label
before its public suffix) is the site's, never a subdomain's word (``shop``, ``en``)."""

from __future__ import annotations

import pytest

from structurer.clean import parse_html
from structurer.page.titles import site_name, title_of
from structurer.words import default_words


@pytest.mark.parametrize(("host", "name"), [
    ("shop.example.com", "example"), ("www.retrosixty.co.uk", "retrosixty"),
    ("en.store.acme.de", "acme"), ("abc.net.au", "abc"), ("fye.com", "fye"),
    ("127.0.0.1", None), ("localhost", None)])
def test_a_hosts_registrable_name(host: str, name: str | None) -> None:
    assert site_name(host, default_words().host_suffixes) == name


def _page(url: str, meta: str, title: str) -> str | None:
    html = (f"<html><head><title>{title}</title><meta property='og:title' content='{meta}'>"
            "</head><body><p>Fresh from the farm, picked this week.</p></body></html>")
    found = title_of(parse_html(html, base_url=url))
    return found.text if found else None


def test_a_subdomains_word_is_no_site_name() -> None:
    # "Shop" of shop.example.com is the product's own title, not the site's name
    assert _page("https://shop.example.com/p/1", "Shop", "Shop – Example Fruit Co.") == "Shop"


def test_the_registrable_name_is_the_sites() -> None:
    # the meta title names only the site: the <title>'s longest part is taken instead
    assert _page("https://shop.example.com/p/1", "Example", "Mango Chutney, 250 g | Example") \
        == "Mango Chutney, 250 g"
    assert _page("https://www.retrosixty.co.uk/p/1", "retrosixty - retrosixty.co.uk",
                 "retrosixty - Lamp, c1960s") == "Lamp, c1960s"
