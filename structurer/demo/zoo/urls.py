"""URL schemes of zoo shops: where categories, their pages and products live.

Input: the ``urls`` and ``page_url`` axis values, the catalog and the page size.
Output: :class:`Urls`, the one place every link and the ground truth take URLs from.
Page 1 of a list is always the bare category URL (never ``?page=1``). Query strings
are matched in any order (:func:`route_key`), as a crawler may sort them.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, quote, urlsplit

from structurer.demo.catalog import Catalog, Category, Product, slugify


def route_key(path_and_query: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A URL path with its query parameters sorted (fragments dropped)."""
    parts = urlsplit(path_and_query)
    return parts.path, tuple(sorted(parse_qsl(parts.query, keep_blank_values=True)))


class Urls:
    """Category, list page, product and API URLs of one shop (paths, no host)."""

    def __init__(self, scheme: str, paging: str, catalog: Catalog, page_size: int, *,
                 id_offset: int, offset_param: str, api: str) -> None:
        self.scheme, self.paging, self.catalog = scheme, paging, catalog
        self.page_size, self.id_offset = page_size, id_offset
        self.offset_param, self.api = offset_param, api
        self.cat_ids = {c.slug: 100 + 7 * i + id_offset % 50
                        for i, c in enumerate(catalog.categories)}
        self.handles: dict[str, str] = {}
        for cat in catalog.categories:
            handle = cat.slug.split("/")[-1]
            if handle in self.handles.values():
                handle = cat.slug.replace("/", "-")
            self.handles[cat.slug] = handle

    def cat_id(self, cat: Category) -> int:
        return self.cat_ids[cat.slug]

    def product_id(self, product: Product) -> int:
        return self.id_offset + product.id

    def _category_base(self, cat: Category) -> str:
        if self.scheme == "classic":
            return f"/c/{cat.slug}/"
        if self.scheme == "nested":
            return f"/{cat.slug}/"
        if self.scheme == "ids":
            return f"/category/{self.cat_id(cat)}/{slugify(cat.name)}"
        if self.scheme == "query":
            chain = [cat]
            while chain[0].parent:
                chain.insert(0, self.catalog.category(chain[0].parent))
            path = "_".join(str(self.cat_id(c)) for c in chain)
            return f"/index.php?route=product/category&path={path}"
        return f"/collections/{self.handles[cat.slug]}"

    def category(self, cat: Category, page: int = 1) -> str:
        base = self._category_base(cat)
        if page == 1:
            return base
        join = "&" if "?" in base else "?"
        if self.paging == "path":
            return base.rstrip("/") + f"/page/{page}/"
        if self.paging == "offset":
            return f"{base}{join}{self.offset_param}={(page - 1) * self.page_size}"
        return f"{base}{join}page={page}"

    def product(self, product: Product) -> str:
        if self.scheme == "classic":
            return f"/p/{product.slug}.html"
        if self.scheme == "nested":
            return f"/{product.category}/{product.slug}.html"
        if self.scheme == "ids":
            return f"/product/{self.product_id(product)}"
        if self.scheme == "query":
            return f"/index.php?route=product/product&product_id={self.product_id(product)}"
        return f"/products/{product.slug}"

    # ----- the JSON endpoints of script-built pages ----------------------------------------
    def api_grid(self, cat: Category, page: int) -> str:
        return f"{self.api}grid?c={self.cat_id(cat)}&page={page}"

    def api_grid_template(self, cat: Category) -> str:
        return f"{self.api}grid?c={self.cat_id(cat)}&page={{n}}"

    def api_menu(self) -> str:
        return f"{self.api}menu.json"

    def api_view(self, path: str) -> str:
        return f"{self.api}view?u={quote(path, safe='')}"
