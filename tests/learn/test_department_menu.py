"""A menu of departments, end to end: a shop whose menu links three departments (pages of
sub-category tiles, no products), beside "My account" and "Cart (0)" links in its header.
The category level's confidence is the share of its links that lead to lists (a
department does, by its sub-categories, fetched or not); the account and cart links are
site chrome, no category: the rule selects the departments alone."""

from __future__ import annotations

from structurer.api import analyze_site
from tests.learn.pager_shop import serve

DEPARTMENTS = {"camping": ("tents", "stoves"), "walking": ("packs", "boots"),
               "climbing": ("ropes", "harnesses")}
HEADER = ("<header><a href='/'>Outdoor shop</a> <a href='/account'>My account</a> "
          "<a href='/cart'>Cart (0)</a><nav><ul class='menu'>" + "".join(
              f"<li><a href='/c/{d}/'>{d.title()}</a></li>" for d in DEPARTMENTS)
          + "</ul></nav></header>")


def _page(title: str, body: str) -> str:
    return (f"<html><head><title>{title}</title></head><body>{HEADER}<main>{body}</main>"
            "<footer><p><a href='/about'>About us</a> <a href='/contact'>Contact</a></p>"
            "</footer></body></html>")


def department_shop() -> dict[str, str]:
    """Path -> answer: home, departments (tiles of their sub-categories), sub-category
    lists of six products, products, info, account and cart pages."""
    out = {"/": _page("Outdoor shop", "<h1>Welcome</h1><p>Gear for the hills.</p>"),
           "/about": _page("About us", "<h1>About us</h1><p>A family business.</p>"),
           "/contact": _page("Contact", "<h1>Contact</h1><p>Write to us.</p>"),
           "/account": _page("My account", "<h1>Sign in</h1><p>Your orders.</p>"),
           "/cart": _page("Cart", "<h1>Cart</h1><p>Your cart is empty.</p>")}
    for d, subs in DEPARTMENTS.items():
        tiles = "".join(f"<li class='tile'><a href='/c/{d}/{s}/'><img src='/i/{s}.jpg' "
                        f"alt=''>{s.title()}</a></li>" for s in subs)
        out[f"/c/{d}/"] = _page(d.title(), f"<h1>{d.title()}</h1><ul class='tiles'>{tiles}"
                                           "</ul>")
        for s in subs:
            items = [(f"{s}-{i}", f"{s.title()} Model {chr(65 + i)}{i * 7 + 3}",
                      20 + i * 13 + len(s)) for i in range(6)]
            cards = "".join(f"<div class='card'><a class='title' href='/p/{slug}.html'>{name}"
                            f"</a><span class='price'>${price}.00</span></div>"
                            for slug, name, price in items)
            out[f"/c/{d}/{s}/"] = _page(s.title(), f"<h1>{s.title()}</h1>"
                                                   f"<div class='grid'>{cards}</div>")
            for slug, name, price in items:
                out[f"/p/{slug}.html"] = _page(name, (
                    f"<div class='trail'><a href='/'>Home</a> &gt; <a href='/c/{d}/'>"
                    f"{d.title()}</a> &gt; <a href='/c/{d}/{s}/'>{s.title()}</a></div>"
                    f"<h1 class='product-title'>{name}</h1><p class='price'>${price}.00</p>"
                    f"<p class='sku'>SKU: {slug.upper()}</p><div class='description'><p>The "
                    f"{name} is built to last in any weather.</p></div>"))
    return out


def test_a_menu_of_departments_leads_to_lists() -> None:
    with serve("", pages=department_shop()) as (base, _):
        rules, report = analyze_site(base + "/")
    category = rules.levels.category
    assert category is not None and category.link_xpath, report.notes
    # the three departments lead to lists; the account and cart links are left out
    assert category.confidence == 1.0, category
    assert category.samples == ["Camping", "Walking", "Climbing"], category
    assert rules.levels.list is not None
