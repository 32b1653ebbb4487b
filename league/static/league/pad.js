/* The pad's running totals as its rows are typed: under each seat of each
   row, the seat's total after that hand, from the totals stored and the rows
   above it, by the scoring rules of rules.js (the engine's, restated). A row
   whose tricks do not add up yet shows no totals and is marked, a hint only:
   the server checks every hand it is sent. Without this script the pad is a
   plain form. No external resources. */
(function () {
  "use strict";
  var grid = document.querySelector("table.pad-entry");
  if (!grid || !window.LeagueRules) {
    return;
  }
  var game = grid.getAttribute("data-game");
  var stored = grid.getAttribute("data-totals").split(",").map(Number);
  var rows = Array.prototype.slice.call(grid.querySelectorAll("tr.entry"));

  function number(input) {
    if (!input || input.value.trim() === "") {
      return null;
    }
    var value = Number(input.value);
    return Number.isInteger(value) && value >= 0 ? value : null;
  }

  function read(row) {
    /* The row as a results record, or null while it is not whole. */
    var seats = Array.prototype.slice.call(row.querySelectorAll("td.seat"));
    var tricks = [];
    var bids = [];
    var drops = [];
    for (var i = 0; i < seats.length; i += 1) {
      var took = number(seats[i].querySelector("input[name$='-tricks_" + i + "']"));
      var dropped = seats[i].querySelector("input[name$='-drop_" + i + "']");
      if (dropped && dropped.checked) {
        drops.push(i);
      }
      if (took === null) {
        return null;
      }
      tricks.push(took);
      if (game === "bluke") {
        var bid = number(seats[i].querySelector("input[name$='-bid_" + i + "']"));
        if (bid === null || bid < 1) {
          return null;
        }
        bids.push(bid);
      }
    }
    var sum = tricks.reduce(function (a, b) { return a + b; }, 0);
    var wanted = game === "bluke" ? Number(row.getAttribute("data-cards")) : (drops.length === seats.length ? 0 : 5);
    if (sum !== wanted) {
      return null;
    }
    var maker = row.querySelector("select[name$='-maker']");
    return {
      bids: bids,
      tricks: tricks,
      drops: drops,
      maker: maker && maker.value !== "" ? Number(maker.value) : null,
    };
  }

  function recount() {
    var totals = stored.slice();
    var broken = false;
    rows.forEach(function (row) {
      var outputs = row.querySelectorAll("output.total");
      var record = broken ? null : read(row);
      var typed = Array.prototype.some.call(row.querySelectorAll("input"), function (input) {
        return input.type === "checkbox" ? input.checked : input.value.trim() !== "" && input.type !== "hidden";
      });
      row.classList.toggle("unfinished", typed && record === null);
      if (record === null) {
        broken = broken || typed;
        Array.prototype.forEach.call(outputs, function (out) { out.textContent = ""; });
        return;
      }
      var points = window.LeagueRules.handPoints(game, record);
      totals = totals.map(function (total, seat) { return total + points[seat]; });
      Array.prototype.forEach.call(outputs, function (out, seat) {
        out.textContent = String(totals[seat]);
      });
    });
  }

  grid.addEventListener("input", recount);
  grid.addEventListener("change", recount);
  recount();
})();
