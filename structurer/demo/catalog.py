"""Deterministic product catalogs for the demo shops.

Input: a shop's vocabulary (category tree, nouns, brands, sentence patterns) and a
seed. Output: a frozen :class:`Catalog` of categories and products. The same seed
always yields the same catalog, so served pages and ground truth never disagree.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal


@dataclass(frozen=True)
class Category:
    """One node of a shop's category tree. ``slug`` is the full slug path."""

    slug: str
    name: str
    path: tuple[str, ...]
    parent: str | None
    children: tuple[str, ...] = ()

    @property
    def is_leaf(self) -> bool:
        return not self.children


@dataclass(frozen=True)
class Product:
    """One product as the shop knows it; prices are exact decimals."""

    id: int
    slug: str
    name: str
    brand: str
    sku: str
    price: Decimal
    original_price: Decimal | None
    currency: str
    price_from: bool
    availability: str
    description: str
    images: tuple[str, ...]
    rating: float | None
    review_count: int
    category: str


@dataclass(frozen=True)
class Vocabulary:
    """The words a catalog is made of.

    ``tree`` maps a top category name to its sub-categories, each with the nouns
    of the products it sells. ``sentences`` are description patterns using
    ``{name}``, ``{brand}``, ``{noun}``, ``{adj}`` and ``{material}``.
    """

    tree: dict[str, dict[str, Sequence[str]]]
    adjectives: Sequence[str]
    brands: Sequence[str]
    materials: Sequence[str]
    sentences: Sequence[str]
    slugs: dict[str, str] = field(default_factory=dict)
    name_pattern: str = "{brand} {adj} {noun} {model}"
    sentence_join: str = " "


@dataclass(frozen=True)
class CatalogSpec:
    """How a shop's catalog is shaped: sizes, prices and how often oddities occur."""

    seed: int
    currency: str
    price_range: tuple[int, int] = (5, 1500)
    per_leaf: tuple[int, int] = (14, 30)
    sku_pattern: str = "{prefix}-{n:05d}"
    sku_prefix: str = "SKU"
    out_of_stock_rate: float = 0.15
    discount_rate: float = 0.25
    price_from_rate: float = 0.0
    rating_rate: float = 0.8
    images: tuple[int, int] = (1, 4)
    image_ext: str = "svg"
    whole_prices: bool = False


@dataclass(frozen=True)
class Catalog:
    """Categories in tree order (each top followed by its children) and products."""

    categories: tuple[Category, ...]
    products: tuple[Product, ...]

    def category(self, slug: str) -> Category:
        for cat in self.categories:
            if cat.slug == slug:
                return cat
        raise KeyError(slug)

    def tops(self) -> list[Category]:
        return [c for c in self.categories if c.parent is None]

    def leaves(self) -> list[Category]:
        return [c for c in self.categories if c.is_leaf]

    def descendants(self, slug: str) -> Iterator[Category]:
        for child in self.category(slug).children:
            yield self.category(child)
            yield from self.descendants(child)

    def products_in(self, slug: str) -> list[Product]:
        """Products of a category and all its descendants, in catalog order."""
        slugs = {slug, *(c.slug for c in self.descendants(slug))}
        return [p for p in self.products if p.category in slugs]

    def product(self, product_id: int) -> Product:
        return self.products[product_id]


def slugify(text: str, known: dict[str, str] | None = None) -> str:
    if known and text in known:
        return known[text]
    out = "".join(ch.lower() if ch.isalnum() and ch.isascii() else "-" for ch in text)
    return "-".join(part for part in out.split("-") if part) or "x"


def _money(value: float, whole: bool) -> Decimal:
    quant = Decimal("1") if whole else Decimal("0.01")
    amount = Decimal(str(value)).quantize(quant, rounding=ROUND_HALF_UP)
    if not whole and amount > 20:
        # Shops like prices ending in .99 / .00 / .50.
        amount = amount.quantize(Decimal("1")) - Decimal(random.Random(int(amount)).choice(
            ["0.01", "0", "0.50", "0.05"]))
    return amount


_Leaf = tuple[Category, Sequence[str]]     # a leaf category and the nouns of its products


def build_catalog(vocab: Vocabulary, spec: CatalogSpec) -> Catalog:
    """Build a two-level category tree and its products from ``vocab`` and ``spec``."""
    rng = random.Random(spec.seed)
    categories, leaves = _category_tree(vocab)
    products: list[Product] = []
    names: set[str] = set()
    for leaf, nouns in leaves:
        for _ in range(rng.randint(*spec.per_leaf)):
            products.append(_product(len(products), leaf, nouns, vocab, spec, rng, names))
    return Catalog(tuple(categories), tuple(products))


def _category_tree(vocab: Vocabulary) -> tuple[list[Category], list[_Leaf]]:
    """Every category, top ones before their children, and the leaves with their nouns."""
    categories: list[Category] = []
    leaves: list[_Leaf] = []
    for top_name, subs in vocab.tree.items():
        top_slug = slugify(top_name, vocab.slugs)
        children = tuple(f"{top_slug}/{slugify(sub, vocab.slugs)}" for sub in subs)
        categories.append(Category(top_slug, top_name, (top_name,), None, children))
        for (sub_name, nouns), child_slug in zip(subs.items(), children, strict=True):
            leaf = Category(child_slug, sub_name, (top_name, sub_name), top_slug)
            categories.append(leaf)
            leaves.append((leaf, nouns))
    return categories, leaves


def _product(pid: int, leaf: Category, nouns: Sequence[str], vocab: Vocabulary,
             spec: CatalogSpec, rng: random.Random, names: set[str]) -> Product:
    """Product ``pid`` of ``leaf``, its name unique among ``names`` (which it joins)."""
    noun = rng.choice(list(nouns))
    brand = rng.choice(list(vocab.brands))
    adj = rng.choice(list(vocab.adjectives))
    material = rng.choice(list(vocab.materials))
    model = f"{rng.choice('ABCDEFGHKLMNPRSTVXZ')}{rng.randint(10, 990)}"
    name = vocab.name_pattern.format(brand=brand, adj=adj, noun=noun, model=model)
    while name in names:
        model = f"{model}{rng.randint(1, 9)}"
        name = vocab.name_pattern.format(brand=brand, adj=adj, noun=noun, model=model)
    names.add(name)
    low, high = spec.price_range
    price = _money(low + (high - low) * rng.random() ** 2.2, spec.whole_prices)
    original = None
    if rng.random() < spec.discount_rate:
        original = _money(float(price) * rng.uniform(1.1, 1.6), spec.whole_prices)
    sentences = rng.sample(list(vocab.sentences), k=min(3, len(vocab.sentences)))
    description = vocab.sentence_join.join(
        s.format(name=name, brand=brand, noun=noun, adj=adj.lower(), material=material)
        for s in sentences
    )
    n_images = rng.randint(*spec.images)
    rating = round(rng.uniform(2.5, 5.0), 1) if rng.random() < spec.rating_rate else None
    return Product(
        id=pid,
        slug=f"{slugify(name)}-{pid}" if slugify(name) != "x" else f"item-{pid}",
        name=name,
        brand=brand,
        sku=spec.sku_pattern.format(prefix=spec.sku_prefix, n=10007 + pid * 37,
                                    a=rng.randint(100, 999)),
        price=price,
        original_price=original,
        currency=spec.currency,
        price_from=rng.random() < spec.price_from_rate,
        availability="out_of_stock" if rng.random() < spec.out_of_stock_rate
        else "in_stock",
        description=description,
        images=tuple(f"/img/{pid}-{i}.{spec.image_ext}" for i in range(1, n_images + 1)),
        rating=rating,
        review_count=rng.randint(1, 480) if rating is not None else 0,
        category=leaf.slug,
    )
