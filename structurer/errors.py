"""The one exception tree of structurer.

Every error a user can cause or meet carries enough context to be printed as a
single line: the file or URL it concerns and what is wrong.

    StructurerError
    ├── FetchError            a page could not be fetched (url, kind, status)
    │   └── RenderTimeout     the browser did not finish rendering in time (kind render_timeout)
    ├── AnalysisError         a site or page could not be analyzed (url, site)
    │   └── NoRepeatedBlock   no repeated product blocks on a list page
    ├── RuleError             a rule file or lexicon cannot be used (file)
    │   └── RuleValidationError   it does not parse or does not validate (file, line, loc)
    └── FrontierError         the crawl state database is unusable (file)

"A field was not found" is not an exception: it is a result with a reason.
"""

from __future__ import annotations


class StructurerError(Exception):
    """Base of every error structurer raises on purpose."""

    def __init__(self, message: str, *, url: str | None = None, site: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.url = url
        self.site = site

    def __str__(self) -> str:
        where = self.url or self.site
        return f"{where}: {self.message}" if where else self.message


#: What a :class:`FetchError` can be, as its ``kind`` says (and crawl statistics count).
FETCH_KINDS = {
    "url": "not an http(s) URL, unparsable, or longer than max_url_length",
    "offsite": "a host (or a redirect to one) outside the allowed hosts",
    "robots": "disallowed by robots.txt",
    "connection": "refused, reset or dropped connection, incomplete body",
    "dns": "the host name does not resolve",
    "timeout": "no answer within the timeout",
    "render_timeout": "the browser did not finish rendering within browser_timeout",
    "tls": "a TLS or certificate error",
    "protocol": "a malformed HTTP response",
    "too_large": "a page over max_page_bytes",
    "redirects": "more than max_redirects redirects",
    "http": "a non-2xx final status (``status`` holds it)",
    "browser": "no usable Chromium, or it did not start",
    "fetch": "anything else (a saved page missing or unreadable, a bad --base-url)",
}


class FetchError(StructurerError):
    """A page could not be fetched. ``kind`` says why (one of :data:`FETCH_KINDS`);
    ``status`` is the HTTP status when there was one. The message is kept to one line."""

    def __init__(self, message: str, *, url: str | None = None, site: str | None = None,
                 kind: str = "fetch", status: int | None = None) -> None:
        super().__init__(" ".join(message.split()), url=url, site=site)
        self.kind = kind
        self.status = status

    @property
    def failure(self) -> str:
        """The name crawl statistics count this failure by: the kind, with the status of
        an HTTP error (``http 404``)."""
        return f"http {self.status}" if self.kind == "http" and self.status else self.kind


class RenderTimeout(FetchError):
    """The browser did not finish rendering a page within its time limit."""

    def __init__(self, message: str, *, url: str | None = None, site: str | None = None) -> None:
        super().__init__(message, url=url, site=site, kind="render_timeout")


class AnalysisError(StructurerError):
    """A site or page could not be analyzed into rules."""


class NoRepeatedBlock(AnalysisError):
    """A page expected to be a product list has no repeated blocks."""


class RuleError(StructurerError):
    """A rule file or a lexicon cannot be used."""

    def __init__(self, message: str, *, file: str | None = None, url: str | None = None,
                 site: str | None = None) -> None:
        super().__init__(message, url=url, site=site)
        self.file = file

    def __str__(self) -> str:
        return f"{self.file}: {self.message}" if self.file else super().__str__()


class RuleValidationError(RuleError):
    """A YAML file does not parse, or its content breaks the schema.

    ``line`` is 1-based where known; ``loc`` is the dotted path of the offending
    key (``levels.list.fields.price.confidence``).
    """

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 loc: str | None = None) -> None:
        super().__init__(message, file=file)
        self.line = line
        self.loc = loc

    def __str__(self) -> str:
        where = self.file or "<string>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.loc}: {self.message}" if self.loc else f"{where}: {self.message}"


class FrontierError(StructurerError):
    """The crawl's state database cannot be opened or is inconsistent."""


__all__ = [
    "FETCH_KINDS",
    "AnalysisError",
    "FetchError",
    "FrontierError",
    "NoRepeatedBlock",
    "RenderTimeout",
    "RuleError",
    "RuleValidationError",
    "StructurerError",
]
