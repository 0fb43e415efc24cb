// Global callbacks the loader calls by name (data-on-error, data-on-state, data-on-success).
// They only log, so a tester sees what a partner integration would receive.
(function () {
  'use strict';

  function log(kind, detail) {
    var list = document.getElementById('events');
    if (!list) return;
    var item = document.createElement('li');
    item.setAttribute('data-kind', kind);
    item.textContent = kind + ': ' + detail;
    list.appendChild(item);
  }

  window.partnerOnError = function (error) {
    document.documentElement.setAttribute('data-last-error', error && error.code ? error.code : 'unknown');
    log('error', (error && error.code) + (error && error.message ? ' (' + error.message + ')' : ''));
  };

  window.partnerOnState = function (state) {
    var name = typeof state === 'string' ? state : state && state.state;
    log('state', String(name));
  };

  window.partnerOnSuccess = function (result) {
    log('success', result && result.grant_code ? 'grant received' : 'result received');
  };
})();
