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
    // the version alone (a 304 while it is unchanged): the page reloads only when there is something new
    Tablebot.api("GET", "/api/tables/" + encodeURIComponent(id) + "/version").then(function (res) {
      if (!res.ok || !res.data || res.data.version === shown) return;
      // (the table's own address: this page may be the answer to a form, which a reload would send again)
      if (!dirty) { location.assign("/t/" + encodeURIComponent(id)); return; }
      live.hidden = false;
      live.textContent = "Another phone saved this table (now version " + res.data.version + "). " +
        "If you save, the server will show you both versions so nothing is lost; Undo would not undo " +
        "their change before you have seen it.";
    });
  }
  setInterval(check, 5000);
})();
