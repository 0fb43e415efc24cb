// The success path: read #grant_code= from the address, clear it at once (it must not stay in
// the history or be copied along with the URL), then let the backend exchange it.
(function () {
  'use strict';
  var target = document.getElementById('result');
  var match = /(?:^#|&)grant_code=([^&]+)/.exec(location.hash);
  if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);
  if (!match) {
    window.PartnerExchange.showMissing(target);
    return;
  }
  window.PartnerExchange.exchangeAndShow(decodeURIComponent(match[1]), target);
})();
