// The table page follows other phones: it checks for a newer version every few seconds and shows it,
// unless this player is typing, in which case it says so instead of throwing their input away.
(function () {
  "use strict";
  var form = document.getElementById("table-form");
  if (!form || !window.fetch) return;
  var id = location.pathname.split("/")[2];
  var shown = Number(form.querySelector("input[name=version]").value);
  var dirty = false;
  form.addEventListener("input", function () { dirty = true; });
  form.addEventListener("submit", function () { dirty = false; });
  var live = document.getElementById("conflict-live");
  function check() {
    if (document.visibilityState !== "visible") return;
    Tablebot.api("GET", "/api/tables/" + encodeURIComponent(id)).then(function (res) {
      if (!res.ok || res.data.version === shown) return;
      if (!dirty) { location.reload(); return; }
      live.hidden = false;
      live.textContent = "Another phone saved this table (now version " + res.data.version + "). " +
        "If you save, the server will show you both versions so nothing is lost.";
    });
  }
  setInterval(check, 5000);
})();
