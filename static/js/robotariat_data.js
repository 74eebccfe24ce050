// Robotariat game data: dice faces, Office Rewards and starting Reputation save with the table as they
// change; the badges say whether a value is still the unverified default.
(function () {
  "use strict";
  var store = window.RB && RB.start("data");
  if (!store) return;
  var form = document.getElementById("data-form");
  var save = Tablebot.debounce(function () { store.do(RB.formAction(form)); }, 400);
  form.addEventListener("input", save);
  form.addEventListener("change", save);
  form.addEventListener("submit", function (e) { e.preventDefault(); store.do(RB.formAction(form)); });
  document.getElementById("reset-form").addEventListener("submit", function (e) {
    e.preventDefault();
    store.do({ "do": "data_reset" });
  });

  function show() {
    var d = store.rb.data;
    ["black", "red"].forEach(function (c) {
      d.dice[c].forEach(function (face, i) {
        var sel = document.getElementById("die-" + c + "-" + i);
        if (sel && document.activeElement !== sel) sel.value = face;
      });
    });
    d.office_rewards.forEach(function (v, i) {
      var input = document.getElementById("reward-" + i);
      if (input && document.activeElement !== input) input.value = v;
    });
    Object.keys(d.starting_reputation).forEach(function (n) {
      var input = document.getElementById("rep-" + n);
      if (input && document.activeElement !== input) input.value = d.starting_reputation[n];
    });
  }
  store.on(show);
})();
