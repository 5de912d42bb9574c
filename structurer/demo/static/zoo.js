/* Zoo shop script: the behaviours of script-built pages, driven by a JSON config.
 *
 * The page names its config in the script tag (data-config="ID" -> <script
 * type="application/json" id="ID">). Keys, each optional:
 *   view   {view, root}            client shell: fetch the page's JSON view, fill root,
 *                                  then run the view's own config
 *   menu   {src | state+globalState, target, cls, tiles, parent}
 *                                  build the menu (and a parent page's sub-category
 *                                  tiles) from a JSON endpoint or the inline state
 *   grid   {src, grid, pager}      fill an empty grid and pager from a JSON endpoint
 *   paging {api, grid, pager, mode, pages}
 *                                  mode "replace": href="#" pager links load page N;
 *                                  "append": a load-more button appends page N;
 *                                  "scroll": appends page N when scrolled near it
 * Also: lazy images (data-src), the cookie banner. Vanilla ES2018, same origin only. */
(function () {
  'use strict';

  var ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

  function esc(value) {
    return String(value == null ? '' : value).replace(/[&<>"']/g, function (c) {
      return ESCAPES[c];
    });
  }

  function cls(name) {
    return name ? ' class="' + esc(name) + '"' : '';
  }

  function getJSON(url) {
    return fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (response) {
        if (!response.ok) {
          throw new Error(response.status + ' ' + url);
        }
        return response.json();
      });
  }

  function readConfig() {
    var me = document.currentScript;
    var id = me && me.getAttribute('data-config');
    var node = id && document.getElementById(id);
    return node ? JSON.parse(node.textContent) : {};
  }

  /* ----- menu and sub-category tiles ------------------------------------------------ */

  function menuData(menu) {
    if (menu.src) {
      return getJSON(menu.src).then(function (data) { return data.categories; });
    }
    var state = menu.globalState ? window[menu.state] :
      JSON.parse(document.getElementById(menu.state).textContent);
    return Promise.resolve(state.navigation.categories);
  }

  function buildMenu(menu, categories) {
    var c = menu.cls || {};
    var target = document.getElementById(menu.target);
    if (target) {
      target.innerHTML = categories.map(function (top) {
        var subs = top.children.map(function (child) {
          return '<li><a href="' + esc(child.url) + '">' + esc(child.name) + '</a></li>';
        }).join('');
        return '<li' + cls(c.nav_item) + '><a' + cls(c.nav_link) + ' href="' + esc(top.url) +
          '">' + esc(top.name) + '</a><ul' + cls(c.nav_sub) + '>' + subs + '</ul></li>';
      }).join('');
    }
    var box = menu.tiles && document.getElementById(menu.tiles);
    var parent = categories.filter(function (top) { return top.url === menu.parent; })[0];
    if (box && parent) {
      box.innerHTML = '<ul' + cls(c.tiles) + '>' + parent.children.map(function (child) {
        return '<li' + cls(c.tile) + '><a href="' + esc(child.url) + '">' + esc(child.name) +
          '</a></li>';
      }).join('') + '</ul>';
    }
  }

  /* ----- grids and paging ----------------------------------------------------------- */

  function fillGrid(grid) {
    return getJSON(grid.src).then(function (data) {
      document.getElementById(grid.grid).innerHTML = data.html;
      document.getElementById(grid.pager).innerHTML = data.pager;
    });
  }

  function wirePaging(paging) {
    var busy = false;

    function load(n, append) {
      if (busy) {
        return;
      }
      busy = true;
      getJSON(paging.api.replace('{n}', String(n))).then(function (data) {
        var grid = document.getElementById(paging.grid);
        if (append) {
          grid.insertAdjacentHTML('beforeend', data.html);
        } else {
          grid.innerHTML = data.html;
          if (paging.pages[n - 1]) {
            history.pushState({ page: n }, '', paging.pages[n - 1]);
          }
        }
        document.getElementById(paging.pager).innerHTML = data.pager;
      }).finally(function () {
        busy = false;
      });
    }

    document.addEventListener('click', function (event) {
      var target = event.target instanceof Element ?
        event.target.closest('[data-page],[data-next-page]') : null;
      var pager = document.getElementById(paging.pager);
      if (!target || !pager || !pager.contains(target)) {
        return;
      }
      if (paging.mode === 'replace' && target.hasAttribute('data-page')) {
        event.preventDefault();
        load(Number(target.getAttribute('data-page')), false);
      } else if (paging.mode === 'append' && target.hasAttribute('data-next-page')) {
        event.preventDefault();
        load(Number(target.getAttribute('data-next-page')), true);
      }
    });

    if (paging.mode === 'scroll') {
      window.addEventListener('scroll', function () {
        var pager = document.getElementById(paging.pager);
        var sentinel = pager && pager.querySelector('[data-next-page]');
        if (sentinel && sentinel.getBoundingClientRect().top < window.innerHeight + 300) {
          load(Number(sentinel.getAttribute('data-next-page')), true);
        }
      }, { passive: true });
    }
  }

  /* ----- small things every page has ----------------------------------------------- */

  function lazyImages() {
    document.querySelectorAll('img[data-src]').forEach(function (img) {
      img.setAttribute('src', img.getAttribute('data-src'));
    });
  }

  function consent() {
    var banner = document.querySelector('[data-consent]');
    if (!banner) {
      return;
    }
    if (document.cookie.indexOf('consent=yes') !== -1) {
      banner.remove();
      return;
    }
    banner.addEventListener('click', function (event) {
      if (event.target instanceof Element && event.target.hasAttribute('data-consent-accept')) {
        document.cookie = 'consent=yes; path=/; max-age=31536000';
        banner.remove();
      }
    });
  }

  function boot(config) {
    var jobs = [];
    if (config.menu) {
      jobs.push(menuData(config.menu).then(function (categories) {
        buildMenu(config.menu, categories);
      }));
    }
    if (config.grid) {
      jobs.push(fillGrid(config.grid));
    }
    if (config.paging) {
      wirePaging(config.paging);
    }
    lazyImages();
    consent();
    return Promise.all(jobs);
  }

  /* ----- client shells ---------------------------------------------------------------- */

  function mountView(config) {
    var root = document.getElementById(config.root);
    root.innerHTML = '<p aria-busy="true">\u2026</p>';
    return getJSON(config.view).then(function (data) {
      document.title = data.title;
      if (data.head) {
        document.head.insertAdjacentHTML('beforeend', data.head);
      }
      var menu = data.config && data.config.menu;
      if (data.state && menu && menu.state) {
        if (menu.globalState) {
          window[menu.state] = data.state;
        } else {
          var node = document.createElement('script');
          node.type = 'application/json';
          node.id = menu.state;
          node.textContent = JSON.stringify(data.state);
          document.body.appendChild(node);
        }
      }
      root.innerHTML = data.html;
      return boot(data.config || {});
    }).catch(function (error) {
      root.innerHTML = '<h1>Something went wrong</h1><p>' + esc(error.message) + '</p>';
    });
  }

  var config = readConfig();
  if (config.view) {
    mountView(config);
  } else {
    boot(config).catch(function () { /* a failed menu or grid leaves the page as it is */ });
  }
}());
