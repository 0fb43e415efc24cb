// The ADULT_BLIND success path: read #attestation= from the address, clear it at once (it must
// not stay in the history or be copied along with the URL), then let the backend verify it
// offline and show the facts it proves. The card's data-verify names the backend's check
// (POST /api/blind/verify; /api/private/verify for a private attestation, checked once against
// this session's redemption context, docs/adult-blind.md#private-attestations); its data-asked
// says what the shop asked for, so the backend can tell "no" from "not asked".
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
    .post(target.getAttribute('data-verify') || '/api/blind/verify', {
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
        answer.source === 'remembered' ? words.checkedBefore : words.checkedNow,
      );
    })
    .catch(function (error) {
      exchange.showFailure(target, error);
    });
})();
