"""A page's title and the site's own name: only a host's registrable name (the label
before its public suffix) is the site's, never a subdomain's word (``shop``, ``en``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from structurer.clean import parse_html
from structurer.lexicon import load_lexicon
from structurer.page.titles import site_name, title_of
from structurer.page.view import PageView
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


def test_the_runs_lexicon_names_the_host_suffixes(tmp_path: Path) -> None:
    # a user's lexicon (a templates/ copy) that knows "shop" before a country code
    # (acme.shop.pl): the site's name is "acme", so a meta title "Acme" names only the site
    text = (Path(__file__).resolve().parents[2] / "templates" / "ecommerce.yaml").read_text(
        encoding="utf-8")
    assert "  host_suffixes: [co, " in text
    (tmp_path / "shop.yaml").write_text(text.replace("  host_suffixes: [co, ",
                                                     "  host_suffixes: [shop, co, ", 1),
                                        encoding="utf-8")
    html = ("<html><head><title>Mango Chutney, 250 g | Acme</title>"
            "<meta property='og:title' content='Acme'></head>"
            "<body><p>Fresh from the farm, picked this week.</p></body></html>")
    url = "https://www.acme.shop.pl/p/1"
    shipped = PageView.from_html(url, html, load_lexicon()).title
    edited = PageView.from_html(url, html, load_lexicon(tmp_path / "shop.yaml")).title
    assert shipped is not None and shipped.text == "Acme"
    assert edited is not None and edited.text == "Mango Chutney, 250 g"


def test_names_title_takes_a_whole_part_never_a_word_of_it() -> None:
    from structurer.page.titles import names_title
    titles = ["Acme Trail Shoe A1 | Outdoor Shop"]
    assert names_title("Acme Trail Shoe A1", titles)
    assert names_title("Acme Trail Shoe A1 | Outdoor Shop", titles)
    assert not names_title("Acme Trail Shoe A1 | Outdoor Shop", titles, whole=False)
    assert not names_title("Acme", titles)
    assert not names_title("Outdoor Shop", titles)
    assert not names_title("", titles)
