"""The news demo site: a generated three-language news site with ground truth.

It shows that rule-free page understanding (``structurer extract-page --template
news``) is not tied to shops. It is served like a demo shop (``structurer demo serve
news``) but is not one: :func:`structurer.demo.all_shops` lists product shops only.
"""

from structurer.demo.news.site import NewsSite

__all__ = ["NewsSite"]
