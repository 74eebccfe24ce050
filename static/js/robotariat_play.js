// Robotariat board page: a tapped answer button ("Start round 2", "Do this", a roll) goes away with the
// answer it applied; the page's swap keeps a focused element, so the button lets go of the focus first.
(function () {
  "use strict";
  document.addEventListener("submit", function (e) {
    if (e.submitter && e.target.matches("form[data-swap]")) e.submitter.blur();
  }, true);
})();
