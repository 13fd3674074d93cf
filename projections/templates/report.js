// Sort the standings by the column whose header is clicked: numbers high to low first, names A to Z;
// a second click reverses.
(function () {
  var table = document.getElementById("standings");
  if (!table) { return; }
  var headers = table.querySelectorAll("th[data-key]");
  headers.forEach(function (header) {
    var button = header.querySelector("button");
    button.addEventListener("click", function () {
      var key = header.getAttribute("data-key");
      var numeric = header.classList.contains("num");
      var current = header.getAttribute("aria-sort");
      var descending = current ? current === "ascending" : numeric;
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.querySelector('[data-key="' + key + '"]').getAttribute("data-value");
        var y = b.querySelector('[data-key="' + key + '"]').getAttribute("data-value");
        var order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return descending ? -order : order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
      headers.forEach(function (other) { other.removeAttribute("aria-sort"); });
      header.setAttribute("aria-sort", descending ? "descending" : "ascending");
    });
  });
})();

// Read the chronicle for one warband: hide what concerns only others (the campaign's own stays).
(function () {
  var filter = document.getElementById("chronicle-filter");
  if (!filter) { return; }
  filter.addEventListener("change", function () {
    var chosen = filter.value;
    document.querySelectorAll("#chronicle [data-warbands]").forEach(function (item) {
      var concerned = item.getAttribute("data-warbands").split(" ").filter(Boolean);
      item.hidden = chosen !== "" && concerned.length > 0 && concerned.indexOf(chosen) < 0;
    });
  });
})();
