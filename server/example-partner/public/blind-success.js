// The ADULT_BLIND success path: read #attestation= from the address, clear it at once (it must
// not stay in the history or be copied along with the URL), then let the backend verify it
// offline (POST /api/blind/verify) and show the facts it proves.
(function () {
  'use strict';
  var target = document.getElementById('result');
  var match = /(?:^#|&)attestation=([^&]+)/.exec(location.hash);
  if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);

  function yesNo(value) {
    return value ? 'yes' : 'no';
  }

  function show(status, title, rows, note) {
    window.PartnerExchange.show(target, status, title, rows, note);
  }

  if (!match) {
    show(
      'missing',
      'No attestation here',
      [],
      'This page is where the widget sends you after a verification. Start from the shop page.',
    );
    return;
  }

  fetch('/api/blind/verify', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ attestation: decodeURIComponent(match[1]) }),
  })
    .then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) throw body;
        return body;
      });
    })
    .then(function (answer) {
      var rows = [
        ['18 or older', yesNo(answer.adult), 'adult'],
        ['French nationality', yesNo(answer.french), 'french'],
        ['EU citizen', yesNo(answer.eu), 'eu'],
      ];
      if (answer.nullifier) rows.push(['Unique identifier for this app', answer.nullifier, 'nullifier']);
      show(
        answer.adult ? 'verified' : 'refused',
        answer.adult ? 'Attestation verified: welcome' : 'Attestation verified: not of age',
        rows,
        answer.source === 'remembered'
          ? 'Our server had already checked this attestation in this session (server-verify); the answer comes from its memory.'
          : 'Our server checked the signature offline just now; the service was not called.',
      );
    })
    .catch(function (error) {
      window.PartnerExchange.showFailure(target, error, 'The attestation could not be verified');
    });
})();
