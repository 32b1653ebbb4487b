/* The scoring rules of the two games, for the pages' running totals as a hand
   is typed (the pad grid, and the hands waiting on a phone while the wifi is
   down). They are the rules engine's own (games/bluke.py hand_points,
   games/buck_euchre.py hand_points and GameTally's end of a game), restated
   for the browser: tests/web/test_rules_js.py holds the two to the same
   answers with Node.js. The server still checks and scores every hand; these
   only show what it will say. No external resources. */
(function (root) {
  "use strict";
  var BUCK_START = 25;
  var BUCK_PENALTY = 5;
  var BUCK_TRICKS = 5;

  /* Bluke: 10 x bid + overtricks for a bid made, -10 x bid for one missed. */
  function blukePoints(bid, tricks) {
    return tricks >= bid ? 10 * bid + (tricks - bid) : -10 * bid;
  }

  /* Buck Euchre: -1 a trick; +5 for a maker with fewer than 3 tricks or any
     other player with none (bucked); 0 for a player who dropped. */
  function buckPoints(tricks, maker, drops) {
    return tricks.map(function (took, seat) {
      if (drops.indexOf(seat) !== -1) {
        return 0;
      }
      var bucked = seat === maker ? took < 3 : took === 0;
      return -took + (bucked ? BUCK_PENALTY : 0);
    });
  }

  /* The seat that wins a Buck Euchre game after a hand, or null: whoever
     took all five tricks, else the one lowest total at or below 0. */
  function buckWinner(totals, tricks, drops) {
    for (var seat = 0; seat < tricks.length; seat += 1) {
      if (drops.indexOf(seat) === -1 && tricks[seat] === BUCK_TRICKS) {
        return seat;
      }
    }
    var lowest = Math.min.apply(null, totals);
    var count = totals.filter(function (t) { return t === lowest; }).length;
    return lowest <= 0 && count === 1 ? totals.indexOf(lowest) : null;
  }

  /* Each seat's points for one hand as a results record gives it. */
  function handPoints(game, record) {
    if (game === "bluke") {
      return record.bids.map(function (bid, seat) {
        return blukePoints(bid, record.tricks[seat]);
      });
    }
    return buckPoints(record.tricks, record.maker, record.drops || []);
  }

  function startTotals(game, players) {
    var start = game === "bluke" ? 0 : BUCK_START;
    var totals = [];
    for (var seat = 0; seat < players; seat += 1) {
      totals.push(start);
    }
    return totals;
  }

  root.LeagueRules = {
    blukePoints: blukePoints,
    buckPoints: buckPoints,
    buckWinner: buckWinner,
    handPoints: handPoints,
    startTotals: startTotals,
  };
})(typeof window !== "undefined" ? window : globalThis);
