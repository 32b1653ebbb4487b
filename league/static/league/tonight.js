/* The tonight page without a round trip: the check-in list narrows as the
   organiser types in "Find a player". Without this script the search box
   still works (it filters on the server, ?q=). No external resources. */
(function () {
  "use strict";
  var box = document.querySelector("input[data-filters]");
  if (!box) {
    return;
  }
  var list = document.getElementById(box.getAttribute("data-filters"));
  var none = document.getElementById("checkin-none");
  if (!list) {
    return;
  }
  var rows = Array.prototype.slice.call(list.querySelectorAll("li[data-name]"));
  box.addEventListener("input", function () {
    var wanted = box.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (row) {
      var match = !wanted || row.getAttribute("data-name").indexOf(wanted) !== -1;
      row.hidden = !match;
      if (match) {
        shown += 1;
      }
    });
    if (none) {
      none.hidden = shown > 0 || rows.length === 0;
    }
  });
})();
