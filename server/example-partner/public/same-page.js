// A page that is its own success path: the loader does not navigate, it hands the result to
// onSuccess (and keeps it for SVC.consumeResult() when the page is opened with a fragment).
(function () {
  'use strict';
  var target = document.getElementById('result');
  var shown = null;

  function handle(result) {
    if (!result || !result.grant_code || result.grant_code === shown) return;
    shown = result.grant_code;
    window.PartnerExchange.exchangeAndShow(result.grant_code, target);
  }

  function failed() {
    target.setAttribute('data-status', 'failed');
    target.textContent = window.PartnerExchange.wordsOf(target).widgetFailed;
  }

  function start() {
    if (!window.SVC) return failed();
    handle(window.SVC.consumeResult());
    window.SVC.onSuccess(handle);
  }

  // The loader tag is async: window.SVC exists once it has run, not necessarily yet.
  var loader = document.querySelector('script[src$="/v4/loader.min.js"]');
  if (window.SVC || !loader) start();
  else {
    loader.addEventListener('load', start);
    loader.addEventListener('error', failed);
  }
})();
