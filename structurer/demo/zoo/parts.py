"""Field fragments shared by list cards and detail pages: price, old price, stock, rating.

Input: a :class:`~structurer.demo.zoo.model.Zoo` and an item. Output: HTML text, one
function per field, each following its axis (``price_markup``, ``oos_price``,
``old_price``, ``stock``, ``rating``). What a fragment shows is exactly what the
ground truth says of the item (:mod:`.truth` reads the same item values).
"""

from __future__ import annotations

from decimal import Decimal

from structurer.demo.base import esc
from structurer.demo.zoo.model import Item, Zoo

_WORDS = ("Zero", "One", "Two", "Three", "Four", "Five")


def money_html(z: Zoo, amount: Decimal) -> str:
    """One amount in the shop's price markup (plain, symbol in a span, cents in <sup>)."""
    loc = z.locale
    markup = z.axes["price_markup"]
    number = loc.number(amount)
    if markup == "split":
        return loc.pattern.format(s=f"<span>{esc(loc.symbol)}</span>",
                                  n=f"<span>{esc(number)}</span>")
    if markup == "sup" and loc.decimals:
        whole, sep, frac = number.rpartition(loc.decimal)
        return loc.pattern.format(
            s=esc(loc.symbol),
            n=f'{esc(whole)}<span class="sr-only">{esc(sep)}</span><sup>{frac}</sup>')
    return esc(loc.money(amount))


def price_html(z: Zoo, it: Item, role: str, tag: str = "span", *, microdata: bool = False) -> str:
    """The item's price element (empty or missing when the shop hides the price)."""
    if it.price is None:
        if z.axes["oos_price"] == "empty":
            return f"<{tag}{z.style.c(role)}>&nbsp;</{tag}>"
        return ""
    inner = money_html(z, it.price)
    if it.high is not None:
        inner += " – " + money_html(z, it.high)
    extra = ""
    if microdata:
        extra = f' itemprop="price" content="{it.price:.{z.locale.decimals}f}"'
        inner += f'<meta itemprop="priceCurrency" content="{z.locale.currency}">'
    return f"<{tag}{z.style.c(role)}{extra}>{inner}</{tag}>"


def old_price_html(z: Zoo, it: Item) -> str:
    if it.original is None:
        return ""
    text = esc(z.money(it.original))
    axis, c = z.axes["old_price"], z.style.c
    if axis == "span_old":
        return f"<span{c('price_old', 'old-price')}>{text}</span>"
    if axis == "was_text":
        return f"<span{c('price_old')}>{esc(z.t('was', x=z.money(it.original)))}</span>"
    tag = "s" if axis == "s" else "del"
    return f"<{tag}{c('price_old')}>{text}</{tag}>"


def stock_words(z: Zoo, it: Item) -> str:
    if it.in_stock:
        return z.t("in_stock", z.look.stock_variant, n=it.stock_n)
    return z.t("out_of_stock", z.look.stock_variant)


def stock_class(z: Zoo, it: Item) -> str:
    """The availability classes of a ``class_only`` shop (shared one + state one)."""
    yes, no, shared = z.look.stock_classes
    return f"{shared} {yes if it.in_stock else no}"


def cart_button(z: Zoo, it: Item, *, disabled: bool = False) -> str:
    off = " disabled" if disabled else ""
    return (f'<button type="submit"{z.style.c("button")} name="add" value="{it.id}"{off}>'
            f"{esc(z.t('add_to_cart'))}</button>")


def list_stock(z: Zoo, it: Item) -> tuple[str, str]:
    """(extra classes for the item element, stock HTML inside it)."""
    axis = z.axes["stock"]
    if axis == "class_only":
        return stock_class(z, it), ""
    if axis == "button_only":
        if it.in_stock:
            return "", cart_button(z, it)
        return "", cart_button(z, it, disabled=True) if z.look.oos_disabled else ""
    return "", f"<p{z.style.c('stock')}>{esc(stock_words(z, it))}</p>"


def buy_form(z: Zoo, it: Item) -> str:
    """The detail page's stock line and add-to-cart form, per the ``stock`` axis."""
    axis = z.axes["stock"]
    form = (f'<form action="/cart/add" method="post"{z.style.c("buybox")}>'
            f'<input type="hidden" name="product" value="{it.id}">'
            f'<label>{esc(z.t("qty"))} <input type="number" name="qty" value="1" min="1">'
            f"</label>{cart_button(z, it)}</form>")
    dead = (f'<form action="/cart/add" method="post"{z.style.c("buybox")}>'
            f"{cart_button(z, it, disabled=True)}</form>")
    if axis == "button_only":
        if it.in_stock:
            return form
        return dead if z.look.oos_disabled else f"<p>{esc(z.t('unavailable'))}</p>"
    if axis == "class_only":
        icon = '<i class="icon-ok"></i>' if it.in_stock else '<i class="icon-remove"></i>'
        return f'<p class="{stock_class(z, it)}">{icon}</p>' + (form if it.in_stock else dead)
    line = f"<p{z.style.c('stock')}>{esc(stock_words(z, it))}</p>"
    notify = (f'<a href="#notify"{z.style.c("button")}>{esc(z.t("notify"))}</a>')
    return line + (form if it.in_stock else notify)


def rating_html(z: Zoo, it: Item, *, long_count: bool = False) -> str:
    """The item's rating per the ``rating`` axis, with its review count beside it."""
    if it.rating is None:
        return ""
    axis, c = z.axes["rating"], z.style.c
    value = Decimal(str(it.rating))
    count = (z.t("reviews_n", n=it.reviews) if long_count else f"({it.reviews})")
    reviews = f"<span{c('reviews')}>{esc(count)}</span>"
    if axis == "class_word":
        word = _WORDS[int(value)]
        names = (f"star-rating {word}" if z.seed % 2 else f"stars {word.lower()}")
        stars = "".join('<i class="icon-star"></i>' for _ in range(5))
        return f'<div{c("rating")}><p class="{names}">{stars}</p>{reviews}</div>'
    if axis == "class_num":
        whole, half = int(value), value % 1 != 0
        name = f"rating-{whole}" + ("-5" if half else "")
        return f'<div{c("rating")}><span class="rating {name}"></span>{reviews}</div>'
    if axis == "width":
        width = int(value * 20)
        return (f'<div{c("rating")}><span class="stars-outer"><span class="stars-inner" '
                f'style="width:{width}%"></span></span>{reviews}</div>')
    shown = z.locale.number(value, 1)
    if axis == "aria":
        return (f'<div{c("rating")} role="img" aria-label="{esc(z.t("rated", r=shown))}">'
                f"{'★' * int(value)}{'☆' * (5 - int(value))}</div>{reviews}")
    return f"<div{c('rating')}><span>{esc(shown)} / 5</span> {reviews}</div>"
