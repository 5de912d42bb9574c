"""Shop "huaxia": a classic Chinese shop (华夏优品), served in GBK, built from dl/dt/dd.

Hard because the bytes are GBK, not UTF-8 (declared in the header and a
``<meta http-equiv>``); all text is Chinese; class names are pinyin abbreviations
(``spmc`` 商品名称, ``jg`` 价格, ``tp`` 图片, ``kc`` 库存) mixed with English ones; items are
``<dl class="goods-item">`` among other dl/dt/dd blocks (mega-menu, brand/price filters,
footer help columns, detail summary). List images are lazy-loaded (``src`` is a blank gif,
the picture is in ``data-original``). Prices are ``￥1299.00`` (full-width yuan sign; the
half-width ¥ is not in GBK), originals ``<del>``. Pagination is path style
``/list-<catid>-<page>.html`` with 上一页 / numbers / 下一页 text links plus a mini pager.
A 热销排行 sidebar reuses the item markup on list and detail pages. No JSON-LD.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from urllib.parse import quote

from structurer.demo.base import Response, Shop, esc
from structurer.demo.catalog import CatalogSpec, Category, Product, Vocabulary

VOCAB = Vocabulary(
    tree={
        "手机数码": {"手机": ["智能手机", "5G手机", "老人手机"],
                     "耳机音箱": ["蓝牙耳机", "降噪耳机", "蓝牙音箱"],
                     "智能穿戴": ["智能手表", "运动手环"]},
        "家用电器": {"厨房小电": ["电饭煲", "空气炸锅", "破壁机", "电热水壶"],
                     "生活电器": ["吸尘器", "电风扇", "加湿器"]},
        "食品饮料": {"休闲零食": ["坚果礼盒", "牛肉干", "曲奇饼干"],
                     "茗茶": ["西湖龙井", "云南普洱", "安溪铁观音"],
                     "粮油调味": ["东北大米", "花生油", "生抽酱油"]},
    },
    adjectives=["旗舰款", "经典款", "新款", "尊享版", "礼盒装", "升级版", "精选", "热销款"],
    brands=["华辰", "星途", "青禾", "瑞祥", "鼎新", "朗悦", "云栖"],
    materials=["优质原材料", "严选材质", "环保材质", "进口原料", "精工工艺"],
    sentences=["{name}采用{material}，品质可靠，经久耐用。",
               "{brand}官方正品，全国联保，支持七天无理由退货。",
               "这款{noun}外观简约大方，送礼自用两相宜。",
               "严选好物，{adj}品质更贴心。", "下单后四十八小时内发货，顺丰包邮。"],
    slugs={"手机数码": "sjsm", "手机": "sj", "耳机音箱": "ejyx", "智能穿戴": "zncd",
           "家用电器": "jydq", "厨房小电": "cfxd", "生活电器": "shdq", "食品饮料": "spyl",
           "休闲零食": "xxls", "茗茶": "mc", "粮油调味": "lytw"},
    name_pattern="{brand}{adj}{noun} {model}",
    sentence_join="",
)

BLANK_GIF = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00"
             b"\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
FOOTER = {
    "购物指南": ["购物流程", "会员介绍", "常见问题", "联系客服"],
    "配送方式": ["上门自提", "211限时达", "配送服务查询", "海外配送"],
    "支付方式": ["货到付款", "在线支付", "分期付款", "公司转账"],
    "售后服务": ["售后政策", "价格保护", "退款说明", "返修/退换货"],
    "特色服务": ["夺宝岛", "延保服务", "以旧换新", "企业采购"],
}


class Huaxia(Shop):
    name = "huaxia"
    title = "华夏优品"
    hard = ("GBK-encoded all-Chinese shop with pinyin class names (spmc/jg/tp/kc): dl/dt/dd "
            "items among many other dl blocks, lazy images in data-original, ￥ prices, and "
            "path pagination /list-<cat>-<page>.html with 上一页/下一页 text links; the food "
            "department lists rows instead of the grid (a second list layout).")
    encoding = "gbk"
    parent_mode = "both"
    pagination = "path"
    jsonld = False
    page_size = 15
    vocabulary = VOCAB
    spec = CatalogSpec(seed=8868, currency="CNY", price_range=(9, 6999), per_leaf=(9, 19),
                       whole_prices=True, sku_pattern="10{a}{n:07d}", image_ext="jpg",
                       discount_rate=0.3, out_of_stock_rate=0.15, images=(2, 5))

    # ----- URL scheme and money -------------------------------------------------------
    def cat_id(self, cat: Category) -> int:
        tops = [c.slug for c in self.catalog.tops()]
        if cat.parent is None:
            return tops.index(cat.slug) + 1
        parent = self.catalog.category(cat.parent)
        return self.cat_id(parent) * 100 + parent.children.index(cat.slug) + 1

    def category_url(self, cat: Category, page: int = 1) -> str:
        return f"/list-{self.cat_id(cat)}-{page}.html"

    def product_url(self, product: Product) -> str:
        return f"/goods-{product.id + 1001}.html"

    def card_image(self, product: Product) -> str:
        return product.images[0] + "_200x200.jpg"

    def format_money(self, amount: Decimal) -> str:
        return f"￥{amount:.2f}"

    def price_text(self, product: Product) -> str:
        text = self.format_money(product.price)
        return f"{text}起" if product.price_from else text

    def extra_routes(self) -> dict[str, Callable[[], Response]]:
        return {"/images/blank.gif": lambda: Response(200, BLANK_GIF, "image/gif")}

    def hot_sale(self, exclude: list[int]) -> list[Product]:
        return [p for p in self.catalog.products[3::8] if p.id not in exclude][:5]

    # ----- chrome -----------------------------------------------------------------------
    def _head(self, title: str, keywords: str) -> str:
        return (
            '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/'
            'TR/xhtml1/DTD/xhtml1-transitional.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml">'
            '<head><meta http-equiv="Content-Type" content="text/html; charset=gbk" />'
            f"<title>{esc(title)}</title><meta name=\"keywords\" content=\"{esc(keywords)}\" />"
            '<meta name="description" content="华夏优品网上商城，正品低价、品质保障、配送及时、'
            '轻松购物！" /><link href="/themes/default/style.css" rel="stylesheet" type="text/css"'
            ' /><script type="text/javascript" src="/js/jquery-1.8.3.min.js"></script>'
            '<script type="text/javascript" src="/js/jquery.lazyload.js"></script></head><body>'
            '<div class="cookie-tip" id="cookieTip">本网站使用Cookie以提升您的浏览体验，继续浏览即'
            '表示您同意我们的<a href="/article-12.html">《隐私政策》</a><a href="javascript:;" '
            'class="cookie-ok">我知道了</a></div>' + self._top() + self._nav())

    def _top(self) -> str:
        quick = "".join(f'<li><a href="/user.php?act={a}">{t}</a></li><li class="spacer">|</li>'
                        for a, t in (("order_list", "我的订单"), ("profile", "会员中心"),
                                     ("ent", "企业采购"), ("service", "客户服务")))
        hot = "".join(f'<a href="/search.php?keywords={quote(w.encode("gbk"))}">{w}</a>'
                      for w in ("5G手机", "空气炸锅", "龙井", "蓝牙耳机", "坚果"))
        return (
            '<div class="top-banner"><a href="http://ad.example.invalid/click?aid=2026" '
            'target="_blank"><img src="/data/afficheimg/nianhuojie.jpg" width="1200" height="80" '
            'alt="年货节 满199减100" /></a><span class="close">×</span></div>'
            '<div id="site-nav"><div class="w1200 clearfix"><span class="fl">您好，欢迎来到华夏'
            '优品！<a href="/user.php">[请登录]</a> <a href="/user.php?act=register">[免费注册]'
            f'</a></span><ul class="fr quick-menu">{quick}<li><a href="/mobile/">手机华夏</a>'
            '</li></ul></div></div><div id="header" class="w1200 clearfix"><div class="logo fl">'
            '<a href="/"><img src="/themes/default/images/logo.gif" alt="华夏优品" /></a></div>'
            '<div class="search fl"><form action="/search.php" method="get"><input name='
            '"keywords" type="text" class="ss-input" /><input type="submit" value="搜 索" class='
            f'"ss-btn" /></form><div class="hot-words">热门搜索：{hot}</div></div>'
            '<div class="gwc fr"><a href="/flow.php">我的购物车<em id="cartNum">0</em></a></div>'
            "</div>")

    def _nav(self) -> str:
        items = []
        for top in self.catalog.tops():
            blocks = "".join(
                f'<dl><dt><a href="{self.category_url(leaf)}">{esc(leaf.name)}</a></dt><dd>'
                + "".join(f'<em><a href="/search.php?keywords={quote(n.encode("gbk"))}">{n}</a>'
                          "</em>" for n in VOCAB.tree[top.name][leaf.name]) + "</dd></dl>"
                for leaf in (self.catalog.category(s) for s in top.children))
            items.append(f'<div class="item"><h3><a href="{self.category_url(top)}">'
                         f'{esc(top.name)}</a></h3><div class="i-mc">{blocks}</div></div>')
        links = "".join(f'<li><a href="{self.category_url(t)}">{esc(t.name)}</a></li>'
                        for t in self.catalog.tops())
        return (f'<div id="nav"><div class="w1200 clearfix"><div class="allsort fl"><h2>全部商品'
                f'分类</h2><div class="sort-list">{"".join(items)}</div></div><ul class="nav-list '
                f'fl"><li class="cur"><a href="/">首页</a></li>{links}<li><a href="/group_buy.php">'
                '团购</a></li><li><a href="/seckill.php">秒杀</a></li><li><a href="/exchange.php">'
                "积分商城</a></li></ul></div></div>")

    def _footer(self) -> str:
        cols = "".join(f"<dl><dt>{h}</dt>" + "".join(
            f'<dd><a href="/article-{i * 10 + j}.html" target="_blank">{t}</a></dd>'
            for j, t in enumerate(links)) + "</dl>" for i, (h, links) in enumerate(FOOTER.items()))
        return (
            '<div id="footer"><div class="service w1200"><span>正品保障</span><span>极速物流'
            '</span><span>七天无理由退换</span><span>满99包邮</span></div><div class="help '
            f'w1200 clearfix">{cols}</div><div class="links w1200">友情链接：<a href="http://'
            'www.example.invalid/">好物导购</a> | <a href="http://www.example.org/">生活家居网'
            '</a></div><div class="copyright">Copyright 2008-2026 华夏优品 版权所有<br />'
            '京ICP备12345678号 京公网安备11010502030000号</div></div><div class="float-kf">'
            '<a href="/kefu.php" target="_blank">在线客服</a></div><script type="text/javascript">'
            '$(function(){$("img.lazy").lazyload({effect:"fadeIn"});});var _hmt=_hmt||[];'
            "</script></body></html>")

    def _item(self, p: Product) -> str:
        url = self.product_url(p)
        old = f"<del>{self.format_money(p.original_price)}</del>" if p.original_price else ""
        stock = ('<span class="yh">有货</span>' if p.availability == "in_stock"
                 else '<span class="wh">无货</span>')
        button = (f'<a class="btn-cart" href="/flow.php?step=add_to_cart&amp;goods_id='
                  f'{p.id + 1001}">加入购物车</a>' if p.availability == "in_stock"
                  else '<a class="btn-notice" href="javascript:;">到货通知</a>')
        return (
            f'<dl class="goods-item" id="li_{p.id + 1001}"><dt class="tp"><a href="{url}" '
            f'target="_blank" title="{esc(p.name)}"><img class="lazy" src="/images/blank.gif" '
            f'data-original="{esc(self.card_image(p))}" width="200" height="200" alt="'
            f'{esc(p.name)}" /></a></dt><dd class="jg"><em>{esc(self.price_text(p))}</em>{old}'
            f'</dd><dd class="spmc"><a href="{url}" target="_blank" title="{esc(p.name)}">'
            f'{esc(p.name)}</a></dd><dd class="pj">已有<a href="{url}#comment">{p.review_count}'
            f'</a>人评价</dd><dd class="kc">{stock}</dd><dd class="cz">{button}'
            '<a class="gz" href="javascript:;">关注</a></dd></dl>')

    def _left(self, cat: Category, exclude: list[int]) -> str:
        top = self.catalog.category(cat.parent) if cat.parent else cat
        tree = "".join(f'<li><a href="{self.category_url(self.catalog.category(s))}">'
                       f'{esc(self.catalog.category(s).name)}</a></li>' for s in top.children)
        hot = "".join(self._item(p) for p in self.hot_sale(exclude))
        return (f'<div class="left-side fl"><div class="cat-tree"><h3><a href="'
                f'{self.category_url(top)}">{esc(top.name)}</a></h3><ul>{tree}</ul></div>'
                f'<div class="hot-sale"><div class="mt"><h3>热销排行</h3></div><div class="mc '
                f'goods-list">{hot}</div></div><div class="ad-left"><a href="http://ad.example.'
                'invalid/click?aid=77" target="_blank"><img src="/data/afficheimg/left-ad.jpg" '
                'width="210" height="300" alt="品牌特卖 低至5折" /></a></div></div>')

    # ----- pages --------------------------------------------------------------------------
    def render_home(self) -> str:
        floors = "".join(
            f'<div class="floor"><div class="floor-hd"><h2><i>{i}F</i>{esc(top.name)}</h2>'
            + "".join(f'<a href="{self.category_url(self.catalog.category(s))}">'
                      f'{esc(self.catalog.category(s).name)}</a>' for s in top.children)
            + '</div><div class="goods-list clearfix">'
            + "".join(self._item(p) for p in self.catalog.products_in(top.slug)[:5])
            + "</div></div>" for i, top in enumerate(self.catalog.tops(), start=1))
        return (self._head("华夏优品网上商城-正品低价、品质保障", "华夏优品,网上购物,手机,家电")
                + '<div class="banner w1200"><a href="/topic-8.html"><img src="/data/'
                'afficheimg/banner1.jpg" alt="开年焕新 家电满减" /></a></div>'
                f'<div class="w1200">{floors}</div>' + self._footer())

    def _pager(self, cat: Category, page: int) -> str:
        total = self.page_count(cat)

        def url(n: int) -> str:
            return self.category_url(cat, n)
        parts = [f'<a class="prev" href="{url(page - 1)}">上一页</a>' if page > 1
                 else '<span class="prev-disabled">上一页</span>']
        for n in range(1, total + 1):
            if abs(n - page) > 2 and n not in (1, total):
                if parts[-1] != '<span class="text">...</span>':
                    parts.append('<span class="text">...</span>')
                continue
            parts.append(f'<span class="cur">{n}</span>' if n == page
                         else f'<a href="{url(n)}">{n}</a>')
        parts.append(f'<a class="next" href="{url(page + 1)}">下一页</a>' if page < total
                     else '<span class="next-disabled">下一页</span>')
        return (f'<div class="fy page clearfix">{"".join(parts)}<span class="skip">共<b>{total}'
                f'</b>页&nbsp;&nbsp;到第<input class="jump" type="text" value="{page}" />页'
                '<a class="btn" href="javascript:;">确定</a></span></div>')

    # The food department lists products as rows, not a grid: a second list layout.
    rows_top = "spyl"

    def _row(self, p: Product) -> str:
        url = self.product_url(p)
        old = f'<s class="row-yj">{self.format_money(p.original_price)}</s>' if p.original_price else ""
        stock = "现货" if p.availability == "in_stock" else "缺货"
        return (
            f'<div class="row-item" data-sku="{p.id + 1001}"><div class="row-pic"><a href="{url}">'
            f'<img src="{esc(self.card_image(p))}" width="120" height="120" alt="" /></a></div>'
            f'<div class="row-info"><h4><a href="{url}">{esc(p.name)}</a></h4>'
            f'<p class="row-brand">品牌：{esc(p.brand)}</p><p class="row-stock">{stock}</p></div>'
            f'<div class="row-buy"><strong class="row-jg">{esc(self.price_text(p))}</strong>{old}'
            f'<a class="btn-cart" href="/flow.php?step=add_to_cart&amp;goods_id={p.id + 1001}">'
            "加入购物车</a></div></div>")

    def uses_rows(self, cat: Category) -> bool:
        return cat.slug.split("/")[0] == self.rows_top

    def render_list(self, cat: Category, page: int) -> str:
        items = self.pages_of(cat)[page - 1]
        total = self.page_count(cat)
        listing = self.listing(cat)
        top = self.catalog.category(cat.parent) if cat.parent else None
        mbx = (f'<a href="{self.category_url(top)}">{esc(top.name)}</a> &gt; ' if top else "")
        subs = ""
        if self.shows_subcategory_links(cat):
            subs = '<dl class="sx-fl"><dt>分类：</dt><dd>' + "".join(
                f'<a href="{self.category_url(self.catalog.category(s))}">'
                f'{esc(self.catalog.category(s).name)}</a>' for s in cat.children) + "</dd></dl>"
        brands = "".join(f'<a href="javascript:;">{b}</a>'
                         for b in sorted({p.brand for p in listing}))
        prices = "".join(f'<a href="javascript:;">{r}</a>'
                         for r in ("0-99", "100-499", "500-1999", "2000-4999", "5000以上"))
        mini = (f'<a class="mini-prev" href="{self.category_url(cat, page - 1)}">&lt;</a>'
                if page > 1 else '<span class="mini-prev">&lt;</span>')
        mini += (f'<a class="mini-next" href="{self.category_url(cat, page + 1)}">&gt;</a>'
                 if page < total else '<span class="mini-next">&gt;</span>')
        title = f"{cat.name}_{top.name}_华夏优品" if top else f"{cat.name}_华夏优品"
        return (
            self._head(title if page == 1 else f"{title}_第{page}页", f"{cat.name},{cat.name}价格")
            + f'<div class="w1200 mbx">当前位置：<a href="/">首页</a> &gt; {mbx}<span>'
            f'{esc(cat.name)}</span></div><div class="w1200 clearfix">'
            + self._left(cat, [p.id for p in items])
            + f'<div class="right-main fr"><div class="sx">{subs}<dl class="sx-pp"><dt>品牌：'
            f'</dt><dd>{brands}</dd></dl><dl class="sx-jg"><dt>价格：</dt><dd>{prices}</dd>'
            '</dl></div><div class="px clearfix"><span class="px-t">排序：</span><a class="cur" '
            'href="javascript:;">默认</a><a href="javascript:;">销量</a><a href="javascript:;">价格'
            '</a><a href="javascript:;">评论数</a><a href="javascript:;">上架时间</a><span class='
            f'"total">共<em>{len(listing)}</em>件商品</span><span class="mini-page"><b>{page}</b>'
            f'/{total}{mini}</span></div>'
            + (f'<div class="goods-rows" id="rows">{"".join(self._row(p) for p in items)}</div>'
               if self.uses_rows(cat) else
               f'<div class="goods-list clearfix" id="plist">{"".join(self._item(p) for p in items)}'
               "</div>")
            + (self._pager(cat, page) if total > 1 else "") + "</div></div>" + self._footer())

    def render_detail(self, p: Product) -> str:
        chain = self.breadcrumb(p)
        crumbs = "".join(f'<a href="{self.category_url(c)}">{esc(c.name)}</a> &gt; '
                         for c in chain)
        thumbs = "".join(f'<li><img src="{esc(src)}" width="54" height="54" alt="" /></li>'
                         for src in p.images)
        old = (f'<span class="yj">原价：<del>{self.format_money(p.original_price)}</del></span>'
               if p.original_price else "")
        rating = (f'<span class="star sa{round(p.rating)}"></span><span class="pf-num">'
                  f'{p.rating}</span>分 <a href="#comment">（累计评价<em>{p.review_count}</em>条）'
                  "</a>" if p.rating is not None else "暂无评价")
        in_stock = p.availability == "in_stock"
        kc = '<span class="yh">有货</span>' if in_stock else '<span class="wh">无货</span>'
        btns = ('<a class="btn-buy" href="/flow.php?step=checkout">立即购买</a><a class="btn-'
                'append" href="/flow.php?step=add_to_cart">加入购物车</a>' if in_stock
                else '<a class="btn-notice" href="javascript:;">到货通知</a>')
        params = "".join(f"<li>{k}：{esc(v)}</li>" for k, v in (
            ("商品名称", p.name), ("商品编号", p.sku), ("品牌", p.brand), ("商品产地", "中国大陆"),
            ("分类", chain[-1].name)))
        return (
            self._head(f"【{p.name}】价格_报价_图片_{p.brand}{chain[-1].name}-华夏优品",
                       f"{p.name},{p.brand},{chain[-1].name}")
            + f'<div class="w1200 mbx"><a href="/">首页</a> &gt; {crumbs}<span>{esc(p.name)}'
            f'</span></div><div class="w1200 clearfix goods-intro"><div class="preview fl">'
            f'<div class="jqzoom"><img id="spec-n1" src="{esc(p.images[0])}" jqimg="'
            f'{esc(p.images[0])}" width="400" height="400" alt="{esc(p.name)}" /></div>'
            '<div class="spec-scroll"><a class="spec-prev">&lt;</a><div class="items"><ul>'
            f'{thumbs}</ul></div><a class="spec-next">&gt;</a></div></div><div class="itemInfo '
            f'fr"><div class="sku-name"><h1>{esc(p.name)}</h1></div><div class="news">'
            f'【{esc(p.brand)}官方旗舰】限时特惠，下单立减！</div><div class="summary">'
            '<dl class="summary-price"><dt>华 夏 价：</dt><dd><strong class="p-price" id='
            f'"ECS_SHOPPRICE">{esc(self.price_text(p))}</strong>{old}</dd></dl>'
            f'<dl><dt>商品编号：</dt><dd class="spbh">{esc(p.sku)}</dd></dl>'
            f'<dl><dt>品　　牌：</dt><dd class="pp"><a href="/brand-'
            f'{VOCAB.brands.index(p.brand) + 1}.html">{esc(p.brand)}</a></dd></dl>'
            f'<dl><dt>商品评分：</dt><dd class="pf">{rating}'
            f'</dd></dl><dl><dt>库　　存：</dt><dd class="kc">{kc}</dd></dl><dl class="sl"><dt>'
            '数　　量：</dt><dd><a class="jian" href="javascript:;">-</a><input type="text" value='
            f'"1" /><a class="jia" href="javascript:;">+</a></dd></dl><div class="btns">{btns}'
            f'</div></div></div></div><div class="w1200 clearfix">'
            + self._left(self.catalog.category(p.category), [p.id])
            + '<div class="right-main fr"><ul class="tab clearfix"><li class="cur">商品介绍</li>'
            f'<li>规格与包装</li><li>售后保障</li><li>商品评价({p.review_count})</li></ul>'
            f'<div class="tab-con"><ul class="parameter">{params}</ul><div class="spjs">'
            f'<p>{esc(p.description)}</p><img src="/data/detail/{p.id + 1001}-banner.jpg" alt="" />'
            '</div></div><div id="comment" class="comment"><h3>商品评价</h3><p>暂无更多评价内容。'
            "</p></div></div></div>" + self._footer())
