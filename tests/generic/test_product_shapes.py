"""Rule-free product pages of unseen shops, rebuilt in the shapes real shops give them in a
dozen languages: price in a data attribute or split over spans, currency after the amount,
a sale beside a struck regular price, a price per unit, instalments, shipping, variants
with their own stock, pre-order and few-left statements, JSON-LD in @graph and arrays,
microdata with several offers, OpenGraph product tags; each beside a strip of related
products, and each must give the product's own price, SKU and stock."""

from __future__ import annotations

from typing import Any

import pytest

from structurer.generic.extract import extract_page_generic
from structurer.lexicon import load_lexicon

LEX = load_lexicon()

def cards(n: int, cur: str = "€", lang_add: str = "In den Warenkorb") -> str:
    """Related products, each with a picture, a name, a price and a buy button."""
    return "".join(
        f"<div class='card'><a href='/p/{i}'><img src='/t/{i}.jpg'></a>"
        f"<a href='/p/{i}'>Another lovely product number {i}</a>"
        f"<span class='price'>{i},99 {cur}</span><button>{lang_add}</button></div>" for i in range(10, 16))

def shell(title: str, h1: str, main: str, head: str = "", lang: str = "en", related: bool = True,
          cur: str = "€", add: str = "Add to cart") -> str:
    """A product page: gallery, title and ``main`` facts, then a related-products strip."""
    rel = f"<section class='related'><h2>You may also like</h2>{cards(6, cur, add)}</section>" if related else ""
    return (f"<html lang='{lang}'><head><title>{title}</title>{head}</head><body><header><nav><a href='/'>Home</a>"
            f"<a href='/cart'>Cart</a></nav></header><main><div class='product'><div class='gallery'><img src='/i/main.jpg' alt='{h1}'></div>"
            f"<div class='info'><h1>{h1}</h1>{main}</div></div>{rel}</main><footer>© Shop</footer></body></html>")

BUY = "<button type='submit' class='btn'>Add to cart</button>"
C: list[tuple[str, str, str, dict[str, Any]]] = []


def case(cid: str, html: str, want: dict[str, Any], url: str = "https://shop.test/products/item"
         ) -> None:
    C.append((cid, html, url, want))

case("data-attr-price", shell("Red Kettle – Shop", "Red Kettle",
     f"<div class='price' data-price='39.90'><span class='amount'>€39.90</span></div><p>SKU: RK-100</p><p class='stock'>In stock</p>{BUY}"),
     dict(price=39.9, sku="RK-100", availability="in_stock"))
case("split-int-frac", shell("Rote Kanne | Shop", "Rote Kanne",
     "<div class='price'><span class='int'>39</span><span class='sep'>,</span><span class='frac'>90</span> <span class='cur'>€</span></div><p>Artikelnummer: 4711-22</p><p>Sofort lieferbar</p><button>In den Warenkorb</button>", lang="de"),
     dict(price=39.9, sku="4711-22", availability="in_stock"))
case("sup-fraction", shell("Bouilloire | Boutique", "Bouilloire rouge",
     "<p class='prix'>39<sup>,90</sup> €</p><p>Réf. : BR-2020</p><p>En stock</p><button>Ajouter au panier</button>", lang="fr"),
     dict(price=39.9, sku="BR-2020", availability="in_stock"))
case("currency-after", shell("Czajnik – Sklep", "Czajnik czerwony",
     "<p class='cena'>149,00 zł</p><p>Kod produktu: CZ-77</p><p>Dostępny</p><button>Dodaj do koszyka</button>", lang="pl", cur="zł"),
     dict(price=149.0, sku="CZ-77", availability="in_stock"))
case("sale-struck", shell("Red Kettle – Shop", "Red Kettle",
     f"<div class='price'><del>€59.00</del> <ins>€39.00</ins></div><p>SKU: RK-100</p>{BUY}"),
     dict(price=39.0, availability="in_stock"))
case("sale-struck-s", shell("Red Kettle – Shop", "Red Kettle",
     f"<div class='price'><s class='old'>€59.00</s><span class='special'>€39.00</span></div>{BUY}"),
     dict(price=39.0, availability="in_stock"))
case("sale-was-now", shell("Red Kettle – Shop", "Red Kettle",
     f"<div><span class='was'>Was £59.00</span> <span class='now'>Now £39.00</span></div>{BUY}", cur="£"),
     dict(price=39.0))
case("per-unit", shell("Olive oil 500 ml – Shop", "Olive oil 500 ml",
     f"<div class='price'>€7.49</div><div class='unit'>€14.98 / l</div>{BUY}"),
     dict(price=7.49, availability="in_stock"))
case("per-unit-first", shell("Olivenöl 500 ml – Shop", "Olivenöl 500 ml",
     "<div class='grundpreis'>(14,98 € / 1 l)</div><div class='price'>7,49 €</div><button>In den Warenkorb</button>", lang="de"),
     dict(price=7.49, availability="in_stock"))
case("variants-stock", shell("T-shirt – Shop", "Basic T-shirt",
     "<p class='price'>$19.00</p><select name='size'><option>S - Sold out</option><option>M</option><option>L</option></select>"
     f"<p>SKU: TS-01</p>{BUY}", cur="$"),
     dict(price=19.0, sku="TS-01", availability="in_stock"))
case("preorder", shell("Game – Shop", "Space Game",
     "<p class='price'>$59.99</p><p class='availability'>Pre-order now – ships March 3</p><button>Pre-order</button>", cur="$"),
     dict(price=59.99, availability="in_stock"))
case("only-2-left", shell("Vase – Shop", "Blue Vase",
     f"<p class='price'>£24.00</p><p class='stock'>Only 2 left in stock</p>{BUY}", cur="£"),
     dict(price=24.0, availability="in_stock"))
case("backorder", shell("Chair – Shop", "Oak Chair",
     f"<p class='price'>£124.00</p><p class='stock'>Available on backorder</p>{BUY}", cur="£"),
     dict(price=124.0))
case("out-of-stock-notify", shell("Chair – Shop", "Oak Chair",
     "<p class='price'>£124.00</p><p class='stock'>Out of stock</p><button>Notify me when available</button>", cur="£"),
     dict(price=124.0, availability="out_of_stock"))
LD_GRAPH = ('<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage","name":"x"},'
            '{"@type":"BreadcrumbList","itemListElement":[]},{"@type":["Product","Thing"],"name":"Red Kettle","sku":"RK-100",'
            '"offers":[{"@type":"Offer","price":"39.90","priceCurrency":"EUR","availability":"https://schema.org/InStock"}]}]}</script>')
case("jsonld-graph", shell("Red Kettle – Shop", "Red Kettle", f"<p class='price'>€39.90</p>{BUY}", head=LD_GRAPH),
     dict(price=39.9, sku="RK-100", availability="in_stock"))
LD_ARR = ('<script type="application/ld+json">[{"@type":"Organization","name":"Shop"},{"@type":"Product","name":"Red Kettle","mpn":"RK-100",'
          '"offers":{"@type":"AggregateOffer","lowPrice":"39.90","highPrice":"49.90","priceCurrency":"EUR","offerCount":2,'
          '"offers":[{"@type":"Offer","price":"39.90","availability":"http://schema.org/OutOfStock"},{"@type":"Offer","price":"49.90","availability":"http://schema.org/InStock"}]}}]</script>')
case("jsonld-array-agg", shell("Red Kettle – Shop", "Red Kettle", f"<p class='price'>€49.90</p>{BUY}", head=LD_ARR),
     dict(price=49.9, availability="in_stock"))
LD_AGG = ('<script type="application/ld+json">{"@type":"Product","name":"Red Kettle","sku":"RK-100",'
          '"offers":{"@type":"AggregateOffer","lowPrice":"39.90","highPrice":"49.90","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}</script>')
case("jsonld-agg-low", shell("Red Kettle – Shop", "Red Kettle", f"<p class='price'>€39.90 – €49.90</p>{BUY}", head=LD_AGG),
     dict(price=39.9, sku="RK-100", availability="in_stock"))
LD_VAR = ('<script type="application/ld+json">{"@type":"ProductGroup","name":"Basic T-shirt","productGroupID":"TS",'
          '"hasVariant":[{"@type":"Product","name":"Basic T-shirt S","sku":"TS-S","offers":{"@type":"Offer","price":"19.00","priceCurrency":"USD","availability":"https://schema.org/OutOfStock"}},'
          '{"@type":"Product","name":"Basic T-shirt M","sku":"TS-M","offers":{"@type":"Offer","price":"19.00","priceCurrency":"USD","availability":"https://schema.org/InStock"}}]}</script>')
case("jsonld-productgroup", shell("Basic T-shirt – Shop", "Basic T-shirt", f"<p class='price'>$19.00</p>{BUY}", head=LD_VAR, cur="$"),
     dict(price=19.0, availability="in_stock"))
MD = ("<div itemscope itemtype='https://schema.org/Product'><meta itemprop='name' content='Red Kettle'><meta itemprop='sku' content='RK-100'>"
      + "".join(f"<div itemprop='offers' itemscope itemtype='https://schema.org/Offer'><meta itemprop='price' content='{p}'><meta itemprop='priceCurrency' content='EUR'>"
                f"<link itemprop='availability' href='https://schema.org/{s}'></div>" for p, s in (("39.90", "OutOfStock"), ("44.90", "InStock")))
      + f"<p class='price'>€44.90</p>{BUY}</div>")
case("microdata-offers", shell("Red Kettle – Shop", "Red Kettle", MD), dict(price=44.9, sku="RK-100", availability="in_stock"))
case("ja-price", shell("赤いやかん｜ショップ", "赤いやかん", "<p class='price'>¥3,980<span>（税込）</span></p><p>商品番号：RK-100</p><p>在庫あり</p><button>カートに入れる</button>", lang="ja", cur="¥", add="カートに入れる"),
     dict(price=3980.0, sku="RK-100", availability="in_stock"))
case("zh-price", shell("红色水壶 - 商城", "红色水壶", "<p class='price'>￥39.90</p><p>商品编号：RK100</p><p>有货</p><button>加入购物车</button>", lang="zh", cur="￥", add="加入购物车"),
     dict(price=39.9, sku="RK100", availability="in_stock"))
case("ru-price", shell("Чайник — Магазин", "Чайник красный", "<p class='price'>2 490 ₽</p><p>Артикул: RK-100</p><p>В наличии</p><button>В корзину</button>", lang="ru", cur="₽", add="В корзину"),
     dict(price=2490.0, sku="RK-100", availability="in_stock"))
case("es-agotado", shell("Tetera – Tienda", "Tetera roja", "<p class='precio'>29,95 €</p><p>Referencia: TR-55</p><p>Agotado</p>", lang="es"),
     dict(price=29.95, sku="TR-55", availability="out_of_stock"))
case("it-price", shell("Bollitore – Negozio", "Bollitore rosso", "<p class='prezzo'>€ 29,95</p><p>Codice: BR-55</p><p>Disponibile</p><button>Aggiungi al carrello</button>", lang="it"),
     dict(price=29.95, sku="BR-55", availability="in_stock"))
case("nl-price", shell("Waterkoker – Winkel", "Waterkoker rood", "<p class='prijs'>€ 29,95</p><p>Artikelnummer: WK-55</p><p>Op voorraad</p><button>In winkelwagen</button>", lang="nl"),
     dict(price=29.95, sku="WK-55", availability="in_stock"))
case("pt-price", shell("Chaleira – Loja", "Chaleira vermelha", "<p class='preco'>R$ 129,90</p><p>Código: CH-55</p><p>Em estoque</p><button>Comprar</button>", lang="pt", cur="R$"),
     dict(price=129.9, sku="CH-55", availability="in_stock"))
case("sv-price", shell("Vattenkokare – Butik", "Vattenkokare röd", "<p class='pris'>299 kr</p><p>Artikelnummer: VK-55</p><p>I lager</p><button>Lägg i varukorgen</button>", lang="sv", cur="kr"),
     dict(price=299.0, sku="VK-55", availability="in_stock"))
case("tr-price", shell("Çaydanlık – Mağaza", "Kırmızı çaydanlık", "<p class='fiyat'>349,90 TL</p><p>Stok kodu: CY-55</p><p>Stokta var</p><button>Sepete ekle</button>", lang="tr", cur="TL"),
     dict(price=349.9, sku="CY-55", availability="in_stock"))
case("cs-price", shell("Konvice – Obchod", "Červená konvice", "<p class='cena'>1 299 Kč</p><p>Kód: KV-55</p><p>Skladem</p><button>Do košíku</button>", lang="cs", cur="Kč"),
     dict(price=1299.0, sku="KV-55", availability="in_stock"))
case("url-slug-sku-none", shell("Red Kettle – Shop", "Red Kettle", f"<p class='price'>€39.90</p>{BUY}"),
     dict(sku=None), url="https://shop.test/product/RK-100-red-kettle")


more = case
more("installments-first", shell("Lamp – Shop", "Desk Lamp", f"<p class='klarna'>or 4 payments of $4.75</p><p class='price'>$19.00</p>{BUY}", cur="$"), dict(price=19.0, availability="in_stock"))
more("sale-after-struck", shell("Lamp – Shop", "Desk Lamp", f"<p class='price'><span class='sale'>€39.00</span> <del>€59.00</del></p>{BUY}"), dict(price=39.0))
more("struck-class", shell("Lamp – Shop", "Desk Lamp", f"<p><span class='price-old line-through'>€59.00</span> <span class='price-new'>€39.00</span></p>{BUY}"), dict(price=39.0))
more("shipping-after", shell("Lampe – Shop", "Schreibtischlampe", "<p class='price'>39,00 €</p><p>inkl. MwSt. zzgl. Versand 4,90 €</p><p>Lieferzeit 2-3 Tage</p><button>In den Warenkorb</button>", lang="de"), dict(price=39.0, availability="in_stock"))
more("free-shipping-threshold-first", shell("Lamp – Shop", "Desk Lamp", f"<div class='banner'>Free shipping on orders over €50.00</div><p class='price'>€39.00</p>{BUY}"), dict(price=39.0))
more("per-kg", shell("Coffee – Shop", "Coffee beans 250 g", f"<p class='price'>€7.99</p><p class='base'>€31.96/kg</p>{BUY}"), dict(price=7.99))
more("no-decimals", shell("Lamp – Shop", "Desk Lamp", f"<p class='price'>$19</p>{BUY}", cur="$"), dict(price=19.0))
more("ko-won", shell("램프 - 쇼핑몰", "책상 램프", "<p class='price'>29,000원</p><p>재고 있음</p><button>장바구니 담기</button>", lang="ko", cur="원", add="장바구니 담기"), dict(price=29000.0, availability="in_stock"))
more("el-price", shell("Λάμπα – Κατάστημα", "Λάμπα γραφείου", "<p class='price'>29,90 €</p><p>Διαθέσιμο</p><button>Προσθήκη στο καλάθι</button>", lang="el"), dict(price=29.9, availability="in_stock"))
more("ro-price", shell("Lampă – Magazin", "Lampă de birou", "<p class='pret'>149,99 RON</p><p>În stoc</p><button>Adaugă în coș</button>", lang="ro", cur="RON"), dict(price=149.99, availability="in_stock"))
more("fi-price", shell("Lamppu – Kauppa", "Pöytälamppu", "<p class='hinta'>39,90 €</p><p>Varastossa</p><button>Lisää ostoskoriin</button>", lang="fi"), dict(price=39.9, availability="in_stock"))
more("da-udsolgt", shell("Lampe – Butik", "Skrivebordslampe", "<p class='pris'>299,00 kr.</p><p>Udsolgt</p><button disabled>Læg i kurv</button>", lang="da", cur="kr."), dict(price=299.0, availability="out_of_stock"))
more("oos-disabled", shell("Lamp – Shop", "Desk Lamp", "<p class='price'>€39.00</p><button disabled class='add-to-cart'>Sold out</button>"), dict(price=39.0, availability="out_of_stock"))
more("amazon-unavail", shell("Lamp – Shop", "Desk Lamp", "<p class='price'>€39.00</p><div id='availability'><span>Currently unavailable.</span></div>"), dict(price=39.0, availability="out_of_stock"))
LD_ALL_OOS = ('<script type="application/ld+json">{"@type":"Product","name":"Desk Lamp","sku":"DL-1","offers":['
              '{"@type":"Offer","price":"39.00","priceCurrency":"EUR","availability":"https://schema.org/OutOfStock"},'
              '{"@type":"Offer","price":"39.00","priceCurrency":"EUR","availability":"https://schema.org/OutOfStock"}]}</script>')
more("jsonld-all-oos", shell("Desk Lamp – Shop", "Desk Lamp", "<p class='price'>€39.00</p><p>Sold out</p>", head=LD_ALL_OOS), dict(price=39.0, sku="DL-1", availability="out_of_stock"))
OG = ('<meta property="og:type" content="product"><meta property="og:title" content="Desk Lamp">'
      '<meta property="product:price:amount" content="39.00"><meta property="product:price:currency" content="EUR">'
      '<meta property="product:availability" content="in stock">')
more("og-product", shell("Shop", "Desk Lamp", "<div id='price-app'></div>", head=OG), dict(price=39.0, availability="in_stock"))
more("price-from-range", shell("Lamp – Shop", "Desk Lamp", f"<p class='price'>From €39.00</p><select name='size'><option>Small €39.00</option><option>Large €49.00</option></select>{BUY}"), dict(price=39.0))
more("sku-in-data-attr", shell("Lamp – Shop", "Desk Lamp", f"<p class='price'>€39.00</p><p class='sku'>Art.-Nr. <span>DL-0001</span></p>{BUY}"), dict(sku="DL-0001"))

more("tr-shipping-first", shell("Çaydanlık – Mağaza", "Kırmızı çaydanlık", "<p>Kargo: 29,90 TL</p><p class='fiyat'>349,90 TL</p><p>Stokta var</p><button>Sepete ekle</button>", lang="tr", cur="TL"), dict(price=349.9, availability="in_stock"))
more("cs-shipping-after", shell("Konvice – Obchod", "Červená konvice", "<p class='cena'>1 299 Kč</p><p>Doprava od 89 Kč</p><p>Není skladem</p>", lang="cs", cur="Kč"), dict(price=1299.0, availability="out_of_stock"))

# shapes of common shop systems and structured-data variants


def ld(offers: str, extra: str = "") -> str:
    """A JSON-LD Product named Desk Lamp with these offers."""
    return ('<script type="application/ld+json">{"@context":"https://schema.org",'
            f'"@type":"Product","name":"Desk Lamp"{extra},"offers":{offers}}}</script>')
more("magento-amount", shell("Desk Lamp – Shop", "Desk Lamp", f"<span data-price-amount='39.9' data-price-type='finalPrice' class='price-wrapper'><span class='price'>€39.90</span></span>{BUY}"), dict(price=39.9))
more("nbsp", shell("Desk Lamp – Shop", "Desk Lamp", f"<p class='price'>39,90\u00a0€</p>{BUY}"), dict(price=39.9))
more("thousands-us", shell("Desk Lamp – Shop", "Desk Lamp", f"<p>Price: $1,299.00</p>{BUY}"), dict(price=1299.0))
more("thousands-eu", shell("Desk Lamp – Shop", "Desk Lamp", f"<p class='price'>1.299,00 €</p>{BUY}"), dict(price=1299.0))
more("swiss", shell("Desk Lamp – Shop", "Desk Lamp", f"<p class='price'>CHF 1'299.–</p>{BUY}"), dict(price=1299.0))
more("pricespec", shell("Desk Lamp – Shop", "Desk Lamp", f"<p class='price'>€39.90</p>{BUY}", head=ld('{"@type":"Offer","priceSpecification":{"@type":"UnitPriceSpecification","price":39.9,"priceCurrency":"EUR"},"availability":"InStock"}')), dict(price=39.9, availability="in_stock"))
more("ld-price-number", shell("Desk Lamp – Shop", "Desk Lamp", f"<p class='price'>€39.90</p>{BUY}", head=ld('{"@type":"Offer","price":39.9,"priceCurrency":"EUR","availability":"http://schema.org/InStock"}', ',"sku":12345')), dict(price=39.9, sku="12345", availability="in_stock"))
more("ld-price-zero", shell("Desk Lamp – Shop", "Desk Lamp", f"<p class='price'>€39.90</p>{BUY}", head=ld('{"@type":"Offer","price":"0.00","priceCurrency":"EUR"}')), dict(price=39.9))
more("ld-limited", shell("Desk Lamp – Shop", "Desk Lamp", f"<p class='price'>€39.90</p>{BUY}", head=ld('{"@type":"Offer","price":"39.90","availability":"https://schema.org/LimitedAvailability"}')), dict(availability="in_stock"))
more("ld-discontinued", shell("Desk Lamp – Shop", "Desk Lamp", "<p class='price'>€39.90</p>", head=ld('{"@type":"Offer","price":"39.90","availability":"https://schema.org/Discontinued"}')), dict(availability="out_of_stock"))
more("ld-backorder", shell("Desk Lamp – Shop", "Desk Lamp", f"<p class='price'>€39.90</p>{BUY}", head=ld('{"@type":"Offer","price":"39.90","availability":"https://schema.org/BackOrder"}')), dict(price=39.9))
more("ld-preorder", shell("Desk Lamp – Shop", "Desk Lamp", "<p class='price'>€39.90</p><button>Pre-order</button>", head=ld('{"@type":"Offer","price":"39.90","availability":"https://schema.org/PreOrder"}')), dict(price=39.9))
more("stock-count", shell("Desk Lamp – Shop", "Desk Lamp", f"<p class='price'>€39.90</p><p class='stock'>23 in stock</p>{BUY}"), dict(availability="in_stock"))
more("stock-zero", shell("Desk Lamp – Shop", "Desk Lamp", "<p class='price'>€39.90</p><p>Stock: 0</p><button disabled>Add to cart</button>"), dict(availability="out_of_stock"))
more("variant-opt-oos", shell("Desk Lamp – Shop", "Desk Lamp", f"<p class='price'>€39.90</p><select name='color'><option>Red (out of stock)</option><option>Blue</option></select>{BUY}"), dict(availability="in_stock"))
more("shopify-soldout", shell("Desk Lamp – Shop", "Desk Lamp", "<p class='price'><span class='money'>$39.90</span></p><button type='submit' name='add' disabled><span>Sold out</span></button>", cur="$"), dict(price=39.9, availability="out_of_stock"))
more("woo", shell("Desk Lamp – Shop", "Desk Lamp", "<p class='price'><span class='woocommerce-Price-amount amount'><bdi><span class='woocommerce-Price-currencySymbol'>&#36;</span>39.90</bdi></span></p><p class='stock in-stock'>12 in stock</p><form class='cart' action='https://shop.test/product/desk-lamp/' method='post'><div class='quantity'><input type='number' name='quantity' value='1'></div><button type='submit' name='add-to-cart' value='12' class='single_add_to_cart_button'>Add to cart</button></form><div class='product_meta'><span class='sku_wrapper'>SKU: <span class='sku'>DL-9</span></span></div>", cur="$"), dict(price=39.9, availability="in_stock", sku="DL-9"))
more("woo-sale", shell("Desk Lamp – Shop", "Desk Lamp", "<p class='price'><del aria-hidden='true'><span class='woocommerce-Price-amount amount'><bdi><span class='woocommerce-Price-currencySymbol'>&#36;</span>49.90</bdi></span></del> <ins><span class='woocommerce-Price-amount amount'><bdi><span class='woocommerce-Price-currencySymbol'>&#36;</span>39.90</bdi></span></ins></p><p class='stock out-of-stock'>Out of stock</p>", cur="$"), dict(price=39.9, availability="out_of_stock"))
more("presta", shell("Desk Lamp – Shop", "Desk Lamp", "<div class='product-prices'><div class='product-discount'><span class='regular-price'>49,90 €</span></div><div class='current-price'><span itemprop='price' content='39.9'>39,90 €</span><span class='discount'>Économisez 20%</span></div><div class='tax-shipping-delivery-label'>TTC</div></div><div class='product-reference'><label class='label'>Référence </label><span itemprop='sku'>LAMP-01</span></div><div id='product-availability'>En stock</div><button class='add-to-cart'>Ajouter au panier</button>", lang="fr"), dict(price=39.9, availability="in_stock", sku="LAMP-01"))
more("shopware", shell("Schreibtischlampe | Shop", "Schreibtischlampe", "<div class='product-detail-price-container'><p class='product-detail-price'>39,90 €*</p><p class='product-detail-list-price-wrapper'>Statt <span class='list-price-price'>49,90 €*</span></p></div><p class='product-detail-tax'>Preise inkl. MwSt. zzgl. Versandkosten</p><div class='delivery-information'><p class='delivery-available'>Sofort verfügbar, Lieferzeit 1-3 Werktage</p></div><div class='product-detail-ordernumber-container'><span class='product-detail-ordernumber-label'>Produktnummer:</span> <span class='product-detail-ordernumber'>SW10001</span></div><button class='btn-buy'>In den Warenkorb</button>", lang="de"), dict(price=39.9, availability="in_stock", sku="SW10001"))
more("ebay-like", shell("Desk Lamp | eBay", "Desk Lamp vintage brass", "<div class='x-price-primary'><span>US $39.90</span></div><div class='x-quantity__availability'><span>More than 10 available</span><span>23 sold</span></div><div><span>Shipping:</span><span>US $12.00 Standard Shipping</span></div><a class='ux-call-to-action' href='/buy'>Buy It Now</a><div>eBay item number:<span>256012345678</span></div>", cur="$"), dict(price=39.9, availability="in_stock", sku="256012345678"), url="https://www.ebay.com/itm/256012345678")
more("amazon-like", shell("Amazon.com: Desk Lamp", "Desk Lamp", "<div id='corePrice'><span class='a-price'><span class='a-offscreen'>$39.90</span><span aria-hidden='true'><span class='a-price-symbol'>$</span><span class='a-price-whole'>39<span class='a-price-decimal'>.</span></span><span class='a-price-fraction'>90</span></span></span></div><div id='availability'><span>In Stock</span></div><input type='submit' id='add-to-cart-button' value='Add to Cart'><table id='productDetails'><tr><th>ASIN</th><td>B07XJ8C8F5</td></tr></table>", cur="$"), dict(price=39.9, availability="in_stock", sku="B07XJ8C8F5"), url="https://www.amazon.com/Desk-Lamp/dp/B07XJ8C8F5")


@pytest.mark.parametrize(("html", "url", "want"), [c[1:] for c in C], ids=[c[0] for c in C])
def test_an_unseen_shops_product_page(html: str, url: str, want: dict[str, Any]) -> None:
    out = extract_page_generic(html, url, LEX)
    got = {"kind": out["kind"], **out["fields"]}
    assert got["kind"] == "detail"
    assert {k: got.get(k) for k in want} == want


def test_a_priced_page_saying_nothing_of_stock_is_in_stock_by_default() -> None:
    """A price and no stock statement, buy control or data: on sale, its source says so."""
    html = shell("Desk Lamp – Shop", "Desk Lamp", "<p class='price'>€39.90</p>")
    out = extract_page_generic(html, "https://shop.test/products/item", LEX)
    assert (out["fields"]["availability"], out["sources"]["availability"]) == (
        "in_stock", "default")
    bare = shell("Desk Lamp – Shop", "Desk Lamp", "<p>A lamp for a desk.</p><p>SKU: DL-1</p>")
    assert extract_page_generic(bare, "https://shop.test/products/item", LEX)["fields"].get(
        "availability") is None
