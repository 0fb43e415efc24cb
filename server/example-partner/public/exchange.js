// Sends a grant code to this site's backend (POST /api/exchange), which exchanges it with the
// service through the SDK, and shows the verified facts. The grant never goes anywhere else.
// window.PartnerExchange.show is also the result card of the ADULT_BLIND success page.
(function () {
  'use strict';

  var LABELS = {
    age_over_18: '18 or older',
    is_french: 'French nationality',
    is_eu: 'EU citizen',
    is_male: 'Male',
    is_female: 'Female',
    nationality: 'Nationality',
    birth_year: 'Birth year',
    nullifier: 'Unique identifier for this site',
    verification_method: 'Verified with',
  };

  function format(value) {
    if (value === true) return 'yes';
    if (value === false) return 'no';
    return String(value);
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
        dt.textContent = row[0];
        var dd = document.createElement('dd');
        dd.textContent = row[1];
        dd.setAttribute('data-attribute', row[2] || '');
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
  var ALREADY_USED = ['GRANT_ALREADY_USED', 'ATTESTATION_ALREADY_USED'];

  /** Renders a refusal from our backend (`{verified: false, error}`) or a network failure. */
  function showFailure(target, error, title) {
    var code = error && error.error ? error.error : 'NETWORK_ERROR';
    if (ALREADY_USED.indexOf(code) !== -1) {
      show(
        target,
        'used',
        'This verification was already used',
        [['Error', code, 'error']],
        'A verification result counts once, in the browser session that received it. Start again from the shop page.',
      );
    } else {
      show(target, 'failed', title, [['Error', code, 'error']], 'Start again from the shop page.');
    }
  }

  window.PartnerExchange = {
    /** Renders a result card: a title, rows of [label, value, attribute name], a note. */
    show: show,
    showFailure: showFailure,
    /** Exchanges `grantCode` through the backend and renders the answer into `target`. */
    exchangeAndShow: function (grantCode, target) {
      target.setAttribute('data-status', 'exchanging');
      target.textContent = 'Checking your verification…';
      return fetch('/api/exchange', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ grant_code: grantCode }),
      })
        .then(function (response) {
          return response.json().then(function (body) {
            if (!response.ok) throw body;
            return body;
          });
        })
        .then(function (answer) {
          var rows = Object.keys(answer.attributes).map(function (key) {
            return [LABELS[key] || key, format(answer.attributes[key]), key];
          });
          rows.push(['Scopes', answer.scopes.join(', '), 'scopes']);
          show(
            target,
            'verified',
            'Verification confirmed',
            rows,
            answer.source === 'remembered'
              ? 'This grant had already been exchanged by our server-verify endpoint in this session; ' +
                  'the answer comes from our backend\u2019s memory.'
              : 'Our backend exchanged the grant code with the service just now.',
          );
        })
        .catch(function (error) {
          showFailure(target, error, 'The verification could not be confirmed');
        });
    },
    showMissing: function (target) {
      show(
        target,
        'missing',
        'No verification result here',
        [],
        'This page is where the widget sends you after a verification. Start from the shop page.',
      );
    },
  };
})();
