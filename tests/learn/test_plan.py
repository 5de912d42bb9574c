"""Which link group of the entry page is the category menu (:func:`best_group`), when
its links lead to department pages whose sub-categories list the products."""

from __future__ import annotations

from structurer.config import Settings
from structurer.fetch.base import Page
from structurer.fetch.replay import ReplayFetcher
from structurer.learn.categories import link_groups
from structurer.learn.explorer import Explorer
from structurer.learn.plan import best_group
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView

LEX = load_lexicon()
DEPTS = ("fiction", "children", "poetry")
INFO = ("about", "contact", "delivery", "returns", "privacy")
HOME = ("<html><body><header><nav><ul>"
        + "".join(f"<li><a href='/{d}/'>{d.title()}</a></li>" for d in DEPTS)
        + "</ul></nav></header><main><h1>Books</h1></main><footer><ul>"
        + "".join(f"<li><a href='/pages/{p}'>{p.title()}</a></li>" for p in INFO)
        + "</ul></footer></body></html>")


def _page(path: str, body: str) -> PageView:
    return PageView.from_html(f"http://shop.test{path}", f"<html><body>{body}</body></html>", LEX)


def test_department_pages_that_lead_to_lists_outweigh_a_larger_footer() -> None:
    """A menu of three departments (pages of sub-category links) and a footer of five
    info pages: both groups' probes are "other" pages, and by count alone the larger
    footer wins; only the departments link the list pages found below them."""
    entry = PageView.from_html("http://shop.test/", HOME, LEX)
    groups = link_groups(entry)
    menu = next(i for i, g in enumerate(groups) if "http://shop.test/fiction/" in g.urls)
    footer = next(i for i, g in enumerate(groups) if "http://shop.test/pages/about" in g.urls)
    depts = [_page(f"/{d}/", "".join(f"<p><a href='/{d}/{s}/'>{s}</a> - the {s} shelf</p>"
                                     for s in ("new", "classics")))
             for d in DEPTS]
    info = [_page(f"/pages/{p}", f"<h1>{p}</h1><p>Opening hours, returns and the like.</p>")
            for p in (INFO[0], INFO[2], INFO[4])]
    assert {p.kind for p in depts + info} == {"other"}
    probes = {menu: depts, footer: info}
    assert best_group(groups, probes)[1] == footer           # by count alone
    lists = [_page(f"/{d}/new/", "") for d in DEPTS[:2]]
    explorer = Explorer(ReplayFetcher({}), LEX, Settings())
    leading = explorer.leading(depts + info, lists)
    assert leading == {"http://shop.test/fiction/", "http://shop.test/children/"}
    assert best_group(groups, probes, leading)[1] == menu



def test_a_menu_a_script_builds_on_every_page_is_no_lead() -> None:
    """The same shop with a sub-category menu a script builds: rendered, every page (the
    footer's info pages too) links the list pages through it. Those links are the site's
    chrome; the departments lead by linking their own sub-categories besides."""
    entry = PageView.from_html("http://shop.test/", HOME, LEX)
    groups = link_groups(entry)
    menu = next(i for i, g in enumerate(groups) if "http://shop.test/fiction/" in g.urls)
    footer = next(i for i, g in enumerate(groups) if "http://shop.test/pages/about" in g.urls)
    chrome = "<nav>" + "".join(f"<a href='/{d}/{s}/'>{s}</a>" for d in DEPTS
                               for s in ("new", "classics")) + "</nav>"
    bodies = {f"/{d}/": "".join(f"<p><a href='/{d}/{s}/'>{s}</a> - the {s} shelf</p>"
                                for s in ("new", "classics")) for d in DEPTS}
    bodies |= {f"/pages/{p}": f"<h1>{p}</h1><p>Opening hours, returns and the like.</p>"
               for p in (INFO[0], INFO[2], INFO[4])}
    explorer = Explorer(ReplayFetcher({}), LEX, Settings())
    for path, body in bodies.items():           # as a browser rendered them
        html = f"<html><body>{chrome}{body}</body></html>"
        url = f"http://shop.test{path}"
        explorer.sampler.rendered_pages[url] = Page(url, url, 200, html.encode(), html,
                                                    "utf-8", rendered=True)
    pages = {path: _page(path, body) for path, body in bodies.items()}
    depts = [pages[f"/{d}/"] for d in DEPTS]
    info = [pages[f"/pages/{p}"] for p in (INFO[0], INFO[2], INFO[4])]
    lists = [_page(f"/{d}/new/", "") for d in DEPTS[:2]]
    leading = explorer.leading(depts + info, lists)
    assert leading == {"http://shop.test/fiction/", "http://shop.test/children/"}
    assert best_group(groups, {menu: depts, footer: info}, leading)[1] == menu


def test_detail_samples_take_a_sold_out_item_first() -> None:
    """A list where every card shows its stock line and price but two of twelve are sold
    out: a sold-out product's page (laid out otherwise) comes among the first samples,
    so detail rules are learned on both kinds of page."""
    from structurer.learn.plan import _column

    entries = [({"name": f"Plate {i}", "price": None if i in (5, 9) else f"${i}.00",
                 "availability": "Currently out of stock" if i in (5, 9) else
                 f"In stock ({i + 3} available)"},
                f"http://shop.test/p/{i}", {"Plates"}, "http://shop.test/c/plates")
               for i in range(12)]
    picks = _column(entries, ["name", "price", "availability"], 4, frozenset({"availability"}))
    assert [url for url, _, _, _ in picks][:2] == ["http://shop.test/p/5", "http://shop.test/p/0"]
    assert "http://shop.test/p/9" in [url for url, _, _, _ in picks]
