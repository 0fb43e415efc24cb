// The private attestation's success path (docs/adult-blind.md#private-attestations): read
// #attestation= from the address, clear it at once, then let the backend verify it offline for
// this session's redemption context (POST /api/private/verify) and show the facts it proves.
(function () {
  'use strict';
  var target = document.getElementById('result');
  var exchange = window.PartnerExchange;
  var words = exchange.wordsOf(target);
  var match = /(?:^#|&)attestation=([^&]+)/.exec(location.hash);
  if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);

  if (!match) {
    exchange.showMissing(target);
    return;
  }

  exchange
    .post('/api/private/verify', {
      attestation: decodeURIComponent(match[1]),
      scopes: target.getAttribute('data-asked'),
      locale: document.documentElement.lang,
    })
    .then(function (answer) {
      exchange.show(
        target,
        answer.adult ? 'verified' : 'refused',
        answer.adult ? words.welcome : words.notAdult,
        answer.facts,
        words.checkedNow,
      );
    })
    .catch(function (error) {
      exchange.showFailure(target, error);
    });
})();
