/* The tonight page without a round trip: the check-in list narrows as the
   organiser types in "Find a player" (on a phone, where the list shows
   tonight's people alone, it finds anyone of the club). Without this script the search box
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
  var collapsed = list.classList.contains("collapsed");
  function filter() {
    var wanted = box.value.trim().toLowerCase();
    // on a phone the list holds tonight's people until a name is looked for
    list.classList.toggle("collapsed", collapsed && !wanted);
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
  }
  box.addEventListener("input", filter);
  // the script is deferred: a name typed before it ran is looked for now
  if (box.value) {
    filter();
  }
})();
