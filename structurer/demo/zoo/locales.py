"""Locales of the zoo: language, currency, money and number formats, legacy charset.

Input: a locale code (``de-DE``). Output: a :class:`Locale` that formats money the way
shops of that country write it (``1.234,56 €``, ``CHF 1’234.50``, ``₹1,23,456.00``,
``￥1,234``) and numbers (``4,5``), and names its words and its pre-Unicode charset.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from structurer.demo.zoo.words import phrase

NBSP, NNBSP = "\u00a0", "\u202f"


@dataclass(frozen=True)
class Locale:
    code: str
    currency: str           # ISO 4217
    symbol: str
    pattern: str            # "{s}{n}" or "{n} {s}" (the space as the shop writes it)
    group: str
    decimal: str
    legacy: str             # the charset shops of this country used before UTF-8
    decimals: int = 2
    indian: bool = False    # lakh grouping: 1,23,456
    price_range: tuple[int, int] = (5, 1500)

    @property
    def lang(self) -> str:
        return self.code.split("-")[0]

    def number(self, value: Decimal | float, decimals: int | None = None) -> str:
        """A number with this locale's separators (``1.234,5``)."""
        places = self.decimals if decimals is None else decimals
        quant = Decimal(1).scaleb(-places)
        amount = Decimal(str(value)).quantize(quant, rounding=ROUND_HALF_UP)
        whole, _, frac = f"{abs(amount):f}".partition(".")
        sign = "-" if amount < 0 else ""
        return sign + self._grouped(whole) + (self.decimal + frac if frac else "")

    def _grouped(self, whole: str) -> str:
        if not self.indian or len(whole) <= 3:
            first = len(whole) % 3 or 3
            return self.group.join([whole[:first], *(whole[i:i + 3]
                                                     for i in range(first, len(whole), 3))])
        rest, parts = whole[:-3], [whole[-3:]]
        while rest:
            parts.insert(0, rest[-2:])
            rest = rest[:-2]
        return self.group.join(parts)

    def money(self, amount: Decimal) -> str:
        return self.pattern.format(s=self.symbol, n=self.number(amount))

    def word(self, key: str, variant: int = 0, **values: object) -> str:
        text = phrase(self.lang, key, variant)
        return text.format(**values) if values else text


LOCALES: dict[str, Locale] = {loc.code: loc for loc in (
    Locale("en-US", "USD", "$", "{s}{n}", ",", ".", "windows-1252", price_range=(5, 1600)),
    Locale("en-GB", "GBP", "£", "{s}{n}", ",", ".", "windows-1252", price_range=(4, 1300)),
    Locale("en-IN", "INR", "₹", "{s}{n}", ",", ".", "windows-1252", indian=True,
           price_range=(199, 150000)),
    Locale("de-DE", "EUR", "€", "{n}" + NBSP + "{s}", ".", ",", "windows-1252",
           price_range=(5, 1500)),
    Locale("de-CH", "CHF", "CHF", "{s} {n}", "’", ".", "windows-1252", price_range=(5, 1600)),
    Locale("fr-FR", "EUR", "€", "{n}" + NBSP + "{s}", NNBSP, ",", "windows-1252",
           price_range=(5, 1500)),
    Locale("es-ES", "EUR", "€", "{n}" + NBSP + "{s}", ".", ",", "windows-1252",
           price_range=(5, 1400)),
    Locale("it-IT", "EUR", "€", "{s} {n}", ".", ",", "windows-1252", price_range=(5, 1400)),
    Locale("nl-NL", "EUR", "€", "{s} {n}", ".", ",", "windows-1252", price_range=(5, 1400)),
    Locale("pt-BR", "BRL", "R$", "{s} {n}", ".", ",", "windows-1252", price_range=(20, 8000)),
    Locale("pl-PL", "PLN", "zł", "{n} {s}", NBSP, ",", "windows-1250", price_range=(20, 6000)),
    Locale("ru-RU", "RUB", "₽", "{n}" + NBSP + "{s}", NBSP, ",", "windows-1251",
           price_range=(300, 150000)),
    Locale("hr-HR", "EUR", "€", "{n} {s}", ".", ",", "windows-1250", price_range=(5, 1400)),
    Locale("sv-SE", "SEK", "kr", "{n} {s}", NBSP, ",", "windows-1252", price_range=(50, 15000)),
    Locale("ja-JP", "JPY", "￥", "{s}{n}", ",", ".", "shift_jis", decimals=0,
           price_range=(300, 180000)),
    Locale("zh-CN", "CNY", "¥", "{s}{n}", ",", ".", "gbk", price_range=(20, 9000)),
)}
