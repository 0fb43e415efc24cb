// Sends a grant code to this site's backend (POST /api/exchange), which exchanges it with the
// service through the SDK, and shows the verified facts. The grant never goes anywhere else.
// window.PartnerExchange.show is also the result card of the ADULT_BLIND success page.
//
// Every word comes from the server: the card's data-words (the page's language) and the
// answer's facts (labels and values already in words), so nothing here is shown raw.
(function () {
  'use strict';

  /** The page's result words (copy.ts ResultWords), from the card's data-words. */
  function wordsOf(target) {
    try {
      return JSON.parse(target.getAttribute('data-words') || '{}');
    } catch (error) {
      return {};
    }
  }

  function show(target, status, title, rows, note) {
    target.setAttribute('data-status', status);
    target.textContent = '';
    var heading = document.createElement('h2');
    heading.textContent = title;
    target.appendChild(heading);
    if (rows.length > 0) {
      var list = document.createElement('dl');
      rows.forEach(function (row) {
        var dt = document.createElement('dt');
        dt.textContent = row.label;
        var dd = document.createElement('dd');
        dd.textContent = row.value;
        dd.setAttribute('data-attribute', row.name || '');
        list.appendChild(dt);
        list.appendChild(dd);
      });
      target.appendChild(list);
    }
    if (note) {
      var p = document.createElement('p');
      p.className = 'note';
      p.textContent = note;
      target.appendChild(p);
    }
  }

  // A result another browser session presented first: a copy, refused by our backend.
  var ALREADY_USED = ['GRANT_ALREADY_USED', 'ATTESTATION_ALREADY_USED', 'REUSED'];

  /** Renders a refusal from our backend (`{verified: false, error}`) or a network failure. */
  function showFailure(target, error) {
    var words = wordsOf(target);
    var code = error && error.error ? error.error : 'NETWORK_ERROR';
    var rows = [{ name: 'error', label: words.errorCode, value: code }];
    if (ALREADY_USED.indexOf(code) !== -1) show(target, 'used', words.used, rows, words.usedNote);
    else show(target, 'failed', words.failed, rows, words.startAgain);
  }

  /** POSTs `body` as JSON to `path` and resolves with the answer, or rejects with the error body. */
  function post(path, body) {
    return fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) throw answer;
        return answer;
      });
    });
  }

  window.PartnerExchange = {
    /** Renders a result card: a title, rows of {name, label, value}, a note. */
    show: show,
    showFailure: showFailure,
    wordsOf: wordsOf,
    post: post,
    /** Exchanges `grantCode` through the backend and renders the answer into `target`. */
    exchangeAndShow: function (grantCode, target) {
      var words = wordsOf(target);
      target.setAttribute('data-status', 'exchanging');
      target.textContent = words.checking;
      return post('/api/exchange', { grant_code: grantCode, locale: document.documentElement.lang })
        .then(function (answer) {
          show(
            target,
            'verified',
            answer.age_over_18 === false ? words.notAdult : words.welcome,
            answer.facts,
            answer.source === 'remembered' ? words.confirmedBefore : words.confirmedNow,
          );
        })
        .catch(function (error) {
          showFailure(target, error);
        });
    },
    showMissing: function (target) {
      var words = wordsOf(target);
      show(target, 'missing', words.missing, [], words.missingNote);
    },
  };
})();
