// Runs before the page paints so a chosen theme never flashes the other one.
(function () {
  try {
    var t = localStorage.getItem("tablebot-theme");
    if (t === "dark" || t === "light") document.documentElement.setAttribute("data-theme", t);
  } catch (e) { /* storage blocked: follow the system */ }
})();
