/* Maple & Co. site script: cookie consent on every page, and on product list pages the
 * product grid, result count, pagination and recommendations, fetched from the API.
 * Vanilla ES2017, same-origin requests only. */
(function () {
  'use strict';

  var ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

  function esc(value) {
    return String(value == null ? '' : value).replace(/[&<>"']/g, function (c) {
      return ESCAPES[c];
    });
  }

  function priceHtml(price) {
    const list = price.list ?
      '<del><span class="strike-through list"><span class="value" ' +
      `content="${esc(price.list.decimal)}">${esc(price.list.formatted)}</span></span></del>` : '';
    return `<span>${list}<span class="sales"><span class="value" ` +
      `content="${esc(price.sales.decimal)}">${esc(price.sales.formatted)}</span></span></span>`;
  }

  function tile(t) {
    const url = esc(t.url);
    let badge = '';
    if (!t.available) {
      badge = '<span class="badge badge-oos">Out of stock</span>';
    } else if (t.price.list) {
      badge = '<span class="badge badge-sale">Sale</span>';
    }
    const rating = t.rating ?
      `<div class="ratings" aria-label="Rated ${t.rating} out of 5"><span class="stars" ` +
      `style="--rating:${t.rating}"></span><span class="rating-count">(${t.reviewCount})</span></div>` : '';
    return `<div class="col-6 col-sm-4 col-lg-3"><div class="product" data-pid="${esc(t.pid)}">` +
      '<div class="product-tile"><div class="image-container">' +
      `<a href="${url}"><img class="tile-image" src="${esc(t.image)}" alt="${esc(t.name)}" ` +
      `title="${esc(t.name)}"></a>${badge}<button class="wishlistTile" type="button" ` +
      'aria-label="Add to wishlist">\u2661</button></div>' +
      `<div class="tile-body"><div class="tile-brand">${esc(t.brand)}</div>` +
      `<div class="pdp-link"><a class="link" href="${url}">${esc(t.name)}</a></div>` +
      `<div class="price">${priceHtml(t.price)}</div>${rating}` +
      `<div class="availability-tile">${t.available ? 'In stock online' : 'Out of stock online'}</div>` +
      '</div></div></div></div>';
  }

  function pagination(data) {
    const p = data.pagination;
    if (data.pageCount < 2) {
      return '';
    }
    const items = [];
    if (p.prev) {
      items.push(`<li class="page-item previous"><a class="page-link" href="${esc(p.prev)}" ` +
        'aria-label="Previous page">Previous</a></li>');
    }
    p.pages.forEach(function (page) {
      items.push(page.n === data.page ?
        `<li class="page-item active"><span class="page-link" aria-current="page">${page.n}</span></li>` :
        `<li class="page-item"><a class="page-link" href="${esc(page.url)}">${page.n}</a></li>`);
    });
    if (p.next) {
      items.push(`<li class="page-item next"><a class="page-link" href="${esc(p.next)}" ` +
        'aria-label="Next page">Next</a></li>');
    }
    return `<ul class="pagination">${items.join('')}</ul>`;
  }

  function refinements(groups) {
    return groups.map(function (group) {
      const values = group.values.filter(function (v) { return v.count > 0; }).map(function (v) {
        return `<li><label><input type="checkbox" name="pref-${esc(group.id)}" ` +
          `value="${esc(v.label)}"> ${esc(v.label)} <span class="count">(${v.count})</span></label></li>`;
      }).join('');
      return `<div class="refinement refinement-${esc(group.id)}"><h2>${esc(group.name)}</h2>` +
        `<ul>${values}</ul></div>`;
    }).join('');
  }

  async function renderListing(root) {
    const grid = document.getElementById('product-grid');
    const page = parseInt(new URLSearchParams(location.search).get('page') || '1', 10);
    const id = root.getAttribute('data-category-id');
    try {
      const response = await fetch(`/api/v2/categories/${id}/products?page=${page}`, {
        credentials: 'same-origin', headers: { Accept: 'application/json' },
      });
      if (!response.ok) {
        throw new Error('HTTP ' + response.status);
      }
      const data = await response.json();
      const first = (data.page - 1) * data.pageSize + 1;
      const last = first + data.products.length - 1;
      document.getElementById('plp-count').textContent =
        `${first}\u2013${last} of ${data.total} results`;
      grid.innerHTML = data.products.map(tile).join('');
      grid.setAttribute('aria-busy', 'false');
      document.getElementById('plp-pagination').innerHTML = pagination(data);
      document.getElementById('plp-refinements').innerHTML = refinements(data.refinements);
      const recs = data.recommendations;
      document.getElementById('plp-recs').innerHTML = recs.products.length ?
        `<h2 class="rec-title">${esc(recs.title)}</h2><div class="row product-grid">` +
        recs.products.map(tile).join('') + '</div>' : '';
      if (data.page > 1) {
        document.title = `${data.category.name} \u2013 Page ${data.page} | Maple & Co.`;
      }
    } catch (error) {
      grid.setAttribute('aria-busy', 'false');
      grid.innerHTML = '<p class="plp-error">Sorry, we could not load products. Please try again.</p>';
    }
  }

  function consent() {
    const banner = document.getElementById('consent-tracking');
    if (!banner) {
      return;
    }
    if (document.cookie.indexOf('mc_consent=') !== -1) {
      banner.remove();
      return;
    }
    banner.addEventListener('click', function (event) {
      const target = event.target;
      if (target.classList.contains('js-consent-accept') ||
          target.classList.contains('js-consent-decline')) {
        const value = target.classList.contains('js-consent-accept') ? 'yes' : 'no';
        document.cookie = `mc_consent=${value}; path=/; max-age=31536000`;
        banner.remove();
      }
    });
  }

  consent();
  const root = document.getElementById('plp-root');
  if (root) {
    renderListing(root);
  }
}());
