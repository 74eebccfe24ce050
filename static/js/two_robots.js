// Two Robots pages, two small widget habits on top of tablebot.js's swaps:
// - a tapped card button gives its focus back once the tap is sent, so the card it belonged to can leave
//   the page when the answer is swapped in (a swap keeps whatever holds focus);
// - a section the player opened (it has an id) stays open when an answer is swapped in, with what is
//   being typed in it.
(function () {
  "use strict";
  var opened = {};
  document.addEventListener("submit", function (e) {
    var s = e.submitter;
    if (s && s.form && s.form.classList.contains("tr") && s.nodeName === "BUTTON") s.blur();
  }, true);
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (d.nodeName !== "DETAILS" || !d.id) return;
    if (d.open) opened[d.id] = true; else delete opened[d.id];
  }, true);
  document.addEventListener("tablebot:swapped", function () {
    Object.keys(opened).forEach(function (id) {
      var d = document.getElementById(id);
      if (d && !d.open) d.open = true;
    });
  });
})();
