/* Pixel Bazaar storefront — client-side rendering of every route from the JSON API.
 * Vanilla ES2017, no framework, no third-party requests. Each URL renders its own
 * content on load (plain links, full page loads, no history API). */
(function () {
  'use strict';

  var root = document.getElementById('root');
  var ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

  function esc(value) {
    return String(value == null ? '' : value).replace(/[&<>"']/g, function (c) {
      return ESCAPES[c];
    });
  }

  async function getJSON(url) {
    const response = await fetch(url, { headers: { Accept: 'application/json' } });
    if (!response.ok) {
      throw new Error(response.status + ' ' + url);
    }
    return response.json();
  }

  function stars(rating) {
    const full = Math.round(rating);
    return '\u2605'.repeat(full) + '\u2606'.repeat(5 - full);
  }

  function slug(text) {
    return String(text).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  }

  /* ----- components ------------------------------------------------------------ */

  function card(p) {
    const rating = p.rating == null ? '' :
      `<div class="card__rating" aria-label="Rated ${p.rating} out of 5">` +
      `<span class="stars">${stars(p.rating)}</span>` +
      `<span class="card__reviews">(${p.reviews})</span></div>`;
    const old = p.old_price_text ?
      `<s class="card__price-old">${esc(p.old_price_text)}</s>` : '';
    const badge = p.badge ? `<span class="card__badge card__badge--sale">${esc(p.badge)}</span>` : '';
    const stock = p.in_stock ?
      '<div class="card__stock card__stock--in">In stock</div>' :
      '<div class="card__stock card__stock--out">Sold out</div>';
    return `<div class="card${p.in_stock ? '' : ' card--soldout'}" data-product-id="${p.id}">` +
      `<a class="card__media" href="${esc(p.url)}" tabindex="-1">` +
      `<img class="card__img" src="${esc(p.image)}" alt="${esc(p.name)}" width="240" height="240">` +
      `</a>${badge}<div class="card__body">` +
      `<div class="card__brand">${esc(p.brand)}</div>` +
      `<h3 class="card__title"><a class="card__link" href="${esc(p.url)}">${esc(p.name)}</a></h3>` +
      rating +
      `<div class="card__price"><span class="card__price-now">${esc(p.price_text)}</span>${old}</div>` +
      stock +
      `<button class="btn btn--primary card__cta" type="button"${p.in_stock ? '' : ' disabled'}>` +
      `${p.in_stock ? 'Add to cart' : 'Notify me'}</button></div></div>`;
  }

  function rail(title, products) {
    if (!products.length) {
      return '';
    }
    return `<section class="rail"><h2 class="rail__title">${esc(title)}</h2>` +
      `<div class="rail__track">${products.map(card).join('')}</div></section>`;
  }

  function cookieBanner() {
    if (window.localStorage && localStorage.getItem('pb_consent') === 'yes') {
      return '';
    }
    return '<div class="cookie-banner" role="dialog" aria-label="Cookie consent">' +
      '<p>We use cookies to personalise content, remember your cart and analyse our traffic. ' +
      '<a href="/help/3-1">Privacy policy</a></p>' +
      '<div class="cookie-banner__actions">' +
      '<button class="btn btn--ghost" type="button" data-action="cookie-prefs">Manage preferences</button>' +
      '<button class="btn btn--primary" type="button" data-action="cookie-accept">Accept all</button>' +
      '</div></div>';
  }

  function header(nav) {
    const items = nav.menu.map(function (top) {
      const subs = top.children.map(function (c) {
        return `<li><a class="megamenu__sublink" href="${esc(c.url)}">${esc(c.name)}` +
          ` <span class="megamenu__count">${c.count}</span></a></li>`;
      }).join('');
      return '<li class="megamenu__item">' +
        `<a class="megamenu__link" href="${esc(top.url)}" aria-haspopup="true">${esc(top.name)}</a>` +
        '<div class="megamenu__panel"><div class="megamenu__col">' +
        `<h4 class="megamenu__heading">Shop by category</h4><ul>${subs}</ul>` +
        `<a class="megamenu__all" href="${esc(top.url)}">Shop all ${esc(top.name)} \u203a</a></div>` +
        '<div class="megamenu__col megamenu__promo">' +
        `<a href="/help/0-0"><img src="/img/promo-${slug(top.name)}.svg" alt="" width="160" height="160">` +
        `<span>Up to 40% off ${esc(top.name)}</span></a></div></div></li>`;
    }).join('');
    return cookieBanner() +
      `<div class="promo-bar">${esc(nav.promo)} \u00b7 <a href="/help/1-1">Details</a></div>` +
      '<header class="header"><div class="header__inner">' +
      '<a class="header__logo" href="/" aria-label="Pixel Bazaar home">Pixel<span>Bazaar</span></a>' +
      '<form class="header__search" action="/search" role="search">' +
      '<input type="search" name="q" placeholder="Search games, consoles, laptops\u2026" aria-label="Search">' +
      '<button type="submit" class="btn">Search</button></form>' +
      '<div class="header__actions"><a href="/account">Sign in</a>' +
      '<a class="header__cart" href="/cart">Cart <span class="pill">0</span></a></div></div>' +
      `<nav class="megamenu" aria-label="Main"><ul class="megamenu__list">${items}` +
      '<li class="megamenu__item"><a class="megamenu__link megamenu__link--hot" href="/help/0-0">Deals</a></li>' +
      '</ul></nav></header>';
  }

  function footer(nav) {
    const cols = nav.footer.map(function (col) {
      const links = col.links.map(function (l) {
        return `<li><a href="${esc(l.url)}">${esc(l.label)}</a></li>`;
      }).join('');
      return `<div class="footer__col"><h4>${esc(col.title)}</h4><ul>${links}</ul></div>`;
    }).join('');
    return '<footer class="footer"><div class="footer__newsletter">' +
      '<p>Get deals before anyone else</p><form action="/newsletter"><input type="email" ' +
      'name="email" placeholder="you@example.com" aria-label="Email"><button class="btn" ' +
      'type="submit">Subscribe</button></form></div>' +
      `<div class="footer__cols">${cols}</div>` +
      `<p class="footer__legal">\u00a9 2026 ${esc(nav.store)} Inc. Prices in ${esc(nav.currency)}. ` +
      'All trademarks are property of their respective owners.</p></footer>';
  }

  function breadcrumbs(links, current) {
    const items = links.map(function (l) {
      return `<li class="breadcrumbs__item"><a href="${esc(l.url)}">${esc(l.name)}</a></li>`;
    }).join('');
    return '<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>' +
      '<li class="breadcrumbs__item"><a href="/">Home</a></li>' + items +
      `<li class="breadcrumbs__item" aria-current="page">${esc(current)}</li></ol></nav>`;
  }

  function pageHref(data, n) {
    return n === 1 ? data.category.url : `?page=${n}`;
  }

  function pager(data) {
    if (data.pages < 2) {
      return '';
    }
    const parts = [];
    if (data.page > 1) {
      parts.push(`<a class="pager__prev" href="${esc(pageHref(data, data.page - 1))}" ` +
        'aria-label="Previous page">\u2039 Previous</a>');
    }
    for (let n = 1; n <= data.pages; n += 1) {
      parts.push(n === data.page ?
        `<span class="pager__page pager__page--current" aria-current="page">${n}</span>` :
        `<a class="pager__page" href="${esc(pageHref(data, n))}">${n}</a>`);
    }
    if (data.page < data.pages) {
      parts.push(`<a class="pager__next" href="${esc(pageHref(data, data.page + 1))}" ` +
        'aria-label="Next page">Next \u203a</a>');
    }
    return `<nav class="pager" aria-label="Pagination">${parts.join('')}</nav>`;
  }

  function adSlot() {
    return '<div class="ad" data-ad-slot="plp-sidebar"><span class="ad__label">Sponsored</span>' +
      '<a href="https://ads.example.invalid/click?c=gpu-week" rel="sponsored nofollow">' +
      '<img src="/img/ad-gpu-week.svg" alt="GPU week: save on graphics cards" width="220" height="220">' +
      '</a></div>';
  }

  /* ----- pages ------------------------------------------------------------------ */

  async function homePage() {
    const data = await getJSON('/api/home.json');
    document.title = 'Pixel Bazaar \u2013 Games, consoles & tech';
    const tiles = data.tiles.map(function (t) {
      return `<li class="tile"><a href="${esc(t.url)}"><img src="/img/tile-${slug(t.name)}.svg" ` +
        `alt="" width="120" height="120"><span class="tile__name">${esc(t.name)}</span></a></li>`;
    }).join('');
    return '<main class="page page--home">' +
      `<section class="hero"><h1>${esc(data.hero.title)}</h1><p>${esc(data.hero.text)}</p>` +
      `<a class="btn btn--primary" href="${esc(data.hero.cta.url)}">Shop ${esc(data.hero.cta.name)}</a></section>` +
      `<section class="tiles"><h2>Shop by category</h2><ul class="tiles__list">${tiles}</ul></section>` +
      rail('Deals of the day', data.deals) + rail('Trending now', data.trending) + '</main>';
  }

  async function listPage(catSlug) {
    const params = new URLSearchParams(location.search);
    const page = parseInt(params.get('page') || '1', 10);
    const data = await getJSON(`/api/category/${catSlug}.json?page=${page}`);
    const cat = data.category;
    document.title = `${cat.name}${data.page > 1 ? ' \u2013 Page ' + data.page : ''} | Pixel Bazaar`;
    const first = (data.page - 1) * data.page_size + 1;
    const last = first + data.items.length - 1;
    const chips = cat.children.length ? '<div class="chips">' + cat.children.map(function (c) {
      return `<a class="chip" href="${esc(c.url)}">${esc(c.name)} <span>${c.count}</span></a>`;
    }).join('') + '</div>' : '';
    const brands = data.brands.map(function (b) {
      return `<label class="facet__option"><input type="checkbox" name="brand" value="${esc(slug(b))}"> ${esc(b)}</label>`;
    }).join('');
    return '<main class="page page--plp">' +
      breadcrumbs(cat.parent ? [cat.parent] : [], cat.name) +
      '<div class="plp"><aside class="filters"><h2 class="filters__title">Filters</h2>' +
      `<section class="facet"><h3>Brand</h3>${brands}</section>` +
      '<section class="facet"><h3>Price</h3>' +
      ['Under $50', '$50 \u2013 $200', '$200 \u2013 $500', '$500 & above'].map(function (r) {
        return `<label class="facet__option"><input type="checkbox" name="price"> ${esc(r)}</label>`;
      }).join('') + '</section>' +
      '<section class="facet"><h3>Availability</h3><label class="facet__option">' +
      '<input type="checkbox" name="instock"> In stock only</label></section>' + adSlot() +
      '</aside><section class="plp__main"><div class="plp__head">' +
      `<h1 class="plp__title">${esc(cat.name)}</h1>` +
      `<p class="plp__count">Showing ${first}\u2013${last} of ${data.total} products</p>` +
      '<label class="plp__sort">Sort by <select name="sort"><option>Featured</option>' +
      '<option>Price: low to high</option><option>Price: high to low</option>' +
      '<option>Customer rating</option></select></label></div>' + chips +
      `<div class="grid" role="list">${data.items.map(card).join('')}</div>` +
      pager(data) + '</section></div>' + rail('Trending now', data.trending) + '</main>';
  }

  async function detailPage(productSlug) {
    const p = await getJSON(`/api/product/${productSlug}.json`);
    document.title = `${p.name} | Pixel Bazaar`;
    const thumbs = p.images.map(function (src, i) {
      return `<button class="pdp__thumb${i === 0 ? ' is-active' : ''}" type="button" data-src="${esc(src)}">` +
        `<img src="${esc(src)}?w=96" alt="${esc(p.name)} view ${i + 1}" width="64" height="64"></button>`;
    }).join('');
    const rating = p.rating == null ? '<div class="pdp__rating">No reviews yet</div>' :
      `<div class="pdp__rating" aria-label="Rated ${p.rating} out of 5"><span class="stars">` +
      `${stars(p.rating)}</span> <span class="pdp__rating-value">${p.rating}</span> ` +
      `<a class="pdp__reviews" href="#reviews">(${p.reviews} reviews)</a></div>`;
    const old = p.old_price_text ?
      `<s class="pdp__price-was">${esc(p.old_price_text)}</s>` +
      `<span class="pdp__save">You save ${esc(p.save_text)} (${esc(p.badge)})</span>` : '';
    const stock = p.availability === 'in_stock' ?
      '<p class="pdp__stock pdp__stock--in">In stock \u2014 ships in 1\u20132 business days</p>' :
      '<p class="pdp__stock pdp__stock--out">Out of stock</p>';
    return '<main class="page page--pdp">' + breadcrumbs(p.breadcrumb, p.name) +
      '<div class="pdp"><div class="pdp__gallery">' +
      `<img class="pdp__image" src="${esc(p.images[0])}" alt="${esc(p.name)}" width="480" height="480">` +
      `<div class="pdp__thumbs">${thumbs}</div></div><div class="pdp__info">` +
      `<a class="pdp__brand" href="/brand/${esc(slug(p.brand))}">${esc(p.brand)}</a>` +
      `<h1 class="pdp__title">${esc(p.name)}</h1>` + rating +
      `<div class="pdp__price"><span class="pdp__price-now">${esc(p.price_text)}</span>${old}</div>` +
      stock +
      '<dl class="pdp__meta">' +
      `<dt>SKU</dt><dd class="pdp__sku">${esc(p.sku)}</dd>` +
      `<dt>Brand</dt><dd class="pdp__brand-name">${esc(p.brand)}</dd></dl>` +
      '<div class="pdp__buy"><label>Qty <input type="number" name="qty" value="1" min="1" max="5"></label>' +
      `<button class="btn btn--primary btn--lg" type="button"${p.availability === 'in_stock' ? '' : ' disabled'}>` +
      'Add to cart</button><button class="btn btn--ghost" type="button">\u2661 Wishlist</button></div>' +
      '<ul class="pdp__perks"><li>Free returns within 30 days</li><li>2-year warranty</li>' +
      '<li>Price match guarantee</li></ul></div></div>' +
      '<section class="pdp__section"><h2>Overview</h2>' +
      `<div class="pdp__description"><p>${esc(p.description)}</p></div></section>` +
      '<section class="pdp__section" id="reviews"><h2>Customer reviews</h2>' +
      `<p>${p.reviews ? esc(p.reviews) + ' verified buyers rated this product.' : 'Be the first to write a review.'}</p></section>` +
      rail('Customers also bought', p.related) + '</main>';
  }

  function notFound() {
    document.title = 'Page not found | Pixel Bazaar';
    return '<main class="page page--error"><h1>Page not found</h1>' +
      '<p>The page you were looking for does not exist.</p><a href="/">Back to the store</a></main>';
  }

  function route() {
    const path = location.pathname;
    let match;
    if (path === '/') {
      return homePage();
    }
    if ((match = /^\/browse\/([a-z0-9\-\/]+)$/.exec(path))) {
      return listPage(match[1]);
    }
    if ((match = /^\/item\/([a-z0-9\-]+)$/.exec(path))) {
      return detailPage(match[1]);
    }
    return Promise.resolve(notFound());
  }

  function wire() {
    root.addEventListener('click', function (event) {
      const target = event.target;
      if (!(target instanceof HTMLElement)) {
        return;
      }
      if (target.dataset.action === 'cookie-accept') {
        localStorage.setItem('pb_consent', 'yes');
        const banner = root.querySelector('.cookie-banner');
        if (banner) {
          banner.remove();
        }
      }
      const thumb = target.closest('.pdp__thumb');
      if (thumb) {
        root.querySelector('.pdp__image').src = thumb.dataset.src;
      }
    });
  }

  async function main() {
    root.innerHTML = '<div class="boot"><div class="spinner" aria-label="Loading"></div></div>';
    try {
      const results = await Promise.all([getJSON('/api/nav.json'), route()]);
      const nav = results[0];
      root.innerHTML = header(nav) + results[1] + footer(nav);
    } catch (error) {
      document.title = 'Something went wrong | Pixel Bazaar';
      root.innerHTML = '<main class="page page--error"><h1>Something went wrong</h1>' +
        `<p>${esc(error.message)}</p><a href="/">Back to the store</a></main>`;
    }
    wire();
  }

  main();
}());
