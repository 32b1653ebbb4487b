/* Entry that survives lost wifi (issue 29 item 3), on a table's score sheet.

   With this script the sheet's "Hand n" form does not post the page: each
   hand is first written to the phone's IndexedDB (the "waiting" store), then
   sent to the API (POST /api/tables/<id>/hands/, the record the form would
   have posted, with an Idempotency-Key of its own, through the table's link
   or the signed-in session). While the connection is down the hands stay on
   the phone, shown on the sheet as waiting ("3 hands waiting to send") with
   the running totals the rules give (rules.js), and the form moves on to the
   next hand; they are sent in order, one at a time, when the connection
   returns (the browser's "online", every few seconds, and when the page is
   opened). The service worker (/service-worker.js) keeps the page and its
   files, so that it opens, and shows what waits, offline too.

   Nothing is lost, doubled or sent out of order: a hand leaves the store
   only once the server has answered 201 (an answer lost on the way is
   replayed for its key, not stored twice), and the first hand the server
   does not take stops the rest. A hand another phone entered first (409) is
   shown beside the one stored; a hand the rules refuse (422), with the
   engine's reason. Either stays on the phone until the person chooses: keep
   theirs and drop this one, or (a conflict) put this one in its place.
   No external resources.

   Every word it writes comes from the page, in the page's language
   (config.words, made by league.web.entry._offline_words): the script
   fills in their %(name)s placeholders and builds no sentence itself. */
(function () {
  "use strict";
  var config = readConfig();
  if (!config || !window.indexedDB || !window.fetch) {
    return;
  }
  var form = document.querySelector("#next-hand form");
  var RETRY_EVERY = 5000;
  var DB_NAME = "card-league";
  var STORE = "waiting";
  var sending = false;
  var WORDS = config.words;

  function say(text, values) {
    /* A page's word with its %(name)s placeholders filled in. */
    return String(text).replace(/%\((\w+)\)s/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    });
  }

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/service-worker.js", { scope: "/" }).catch(function () {
      /* no worker (a page not served securely): entry still waits on the phone */
    });
  }

  function readConfig() {
    var element = document.getElementById("offline-config");
    return element ? JSON.parse(element.textContent) : null;
  }

  // -- the phone's store ------------------------------------------------------------

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        var store = request.result.createObjectStore(STORE, { keyPath: "key" });
        store.createIndex("table", "table");
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function tx(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(STORE, mode);
        var result = work(transaction.objectStore(STORE));
        transaction.oncomplete = function () { resolve(result && result.result); };
        transaction.onerror = function () { reject(transaction.error); };
      });
    });
  }

  function waiting() {
    /* This table's hands on the phone, in the order entered. */
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var request = db.transaction(STORE).objectStore(STORE).index("table").getAll(config.table);
        request.onsuccess = function () {
          resolve(request.result.sort(function (a, b) { return a.number - b.number || a.made - b.made; }));
        };
        request.onerror = function () { reject(request.error); };
      });
    });
  }

  function keep(hand) { return tx("readwrite", function (store) { return store.put(hand); }); }
  function drop(key) { return tx("readwrite", function (store) { return store.delete(key); }); }

  // -- the form -----------------------------------------------------------------------

  function value(name) {
    var field = form.elements.namedItem(name);
    return field ? field.value.trim() : "";
  }

  function record() {
    /* The hand as a results record, as the server's form reads it (HandForm.record). */
    var trump = value("trump");
    var seats = [];
    for (var seat = 0; seat < config.players; seat += 1) {
      seats.push(seat);
    }
    var hand = { trump: trump === "none" ? null : trump };
    hand.tricks = seats.map(function (s) { return Number(value("tricks_" + s)); });
    if (config.game === "bluke") {
      hand.bids = seats.map(function (s) { return Number(value("bid_" + s)); });
    } else {
      hand.maker = value("maker") === "" ? null : Number(value("maker"));
      hand.drops = seats.filter(function (s) {
        var box = form.elements.namedItem("drop_" + s);
        return box && box.checked;
      });
    }
    return hand;
  }

  function complete(number) {
    return config.game === "bluke" && config.schedule && number >= config.schedule.length;
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) {
      return crypto.randomUUID();
    }
    return "k" + Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  function onSubmit(event) {
    event.preventDefault();
    var hand = {
      key: newKey(),
      table: config.table,
      number: Number(value("number")),
      record: record(),
      seat: config.seat,
      made: Date.now(),
      problem: null,
    };
    waiting().then(function (before) {
      return keep(hand).then(function () {
        if (before.length) {  // hands wait already: this one goes after them, in order
          form.reset();
          return show().then(send);
        }
        return sendNow(hand);
      });
    });
  }

  function sendNow(hand) {
    /* The hand just typed, nothing waiting before it: stored, the sheet as the
       server has it; refused by the form or the rules, the form posted as it
       is, for the server to show each problem by its field (nothing is
       stored either way); no connection: it waits on the phone. */
    return post(hand).then(function (answer) {
      if (answer.status === 201) {
        return drop(hand.key).then(function () { window.location.reload(); });
      }
      if (answer.status === 400 || answer.status === 422) {
        return drop(hand.key).then(function () { form.submit(); });
      }
      return settle(hand, answer).then(function () {
        form.reset();
        return show();
      });
    }, function () {
      form.reset(); // no connection: the hand waits, the form moves on
      return show();
    });
  }

  function post(hand) {
    var body = { number: hand.number, record: hand.record };
    if (config.auth) {
      body.seat = hand.seat;
    }
    return fetch(config.api, {
      method: "POST",
      headers: headers(hand),
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
  }

  function settle(hand, answer) {
    /* Keep a hand the server did not take, with what it said. */
    if (answer.status === 401 || answer.status === 403) {
      hand.problem = { status: answer.status, detail: WORDS.forbidden };
      return keep(hand);
    }
    if (answer.status >= 500) {
      return Promise.resolve(); // busy or down: the next turn sends it again
    }
    return answer.json().then(function (problem) {
      hand.problem = { status: answer.status, detail: said(hand, answer.status, problem), code: problem.code || "" };
      return keep(hand);
    });
  }

  // -- sending ----------------------------------------------------------------------

  function headers(hand) {
    var sent = { "Content-Type": "application/json", "Idempotency-Key": hand.key };
    if (config.auth) {
      sent.Authorization = config.auth;
    } else {
      sent["X-CSRFToken"] = config.csrf;
    }
    return sent;
  }

  function send() {
    if (sending) {
      return Promise.resolve();
    }
    sending = true;
    return waiting().then(function (hands) {
      var sent = 0;
      function next(index) {
        var hand = hands[index];
        if (!hand || hand.problem) {
          return sent; // the first hand the server did not take stops the rest
        }
        return post(hand).then(function (answer) {
          if (answer.status === 201) {
            sent += 1;
            return drop(hand.key).then(function () { return next(index + 1); });
          }
          return settle(hand, answer).then(function () { return sent; });
        });
      }
      return next(0);
    }).then(function (sent) {
      sending = false;
      if (sent) {
        return refresh();
      }
      return show();
    }, function () {
      sending = false; // no connection: the hands wait
      return show();
    });
  }

  function said(hand, status, problem) {
    /* A refusal in the page's words (the API counts hands from 0; people from 1). */
    if (status === 409 && problem.field === "number") {
      return say(WORDS.taken_first, { number: hand.number + 1 });
    }
    if (status === 409 && problem.code === "confirmed") {
      return WORDS.confirmed;
    }
    return problem.detail;
  }

  var SUITS = WORDS.suits;

  function refresh() {
    /* Hands were stored: the sheet as the server has it now. */
    return waiting().then(function (hands) {
      if (!hands.length) {
        window.location.reload();
      } else {
        return show();
      }
    });
  }

  // -- what the page shows ------------------------------------------------------------

  function show() {
    return waiting().then(function (hands) {
      var list = document.getElementById("waiting-hands");
      var badge = document.getElementById("waiting-badge");
      var rows = document.querySelectorAll("tr.waiting-row");
      Array.prototype.forEach.call(rows, function (row) { row.remove(); });
      list.innerHTML = "";
      badge.hidden = hands.length === 0;
      badge.textContent = WORDS.waiting[String(hands.length)] || String(hands.length);
      var totals = config.totals.slice();
      var over = false;
      var body = document.querySelector("table.sheet tbody");
      hands.forEach(function (hand) {
        var points = window.LeagueRules.handPoints(config.game, hand.record);
        totals = totals.map(function (total, seat) { return total + points[seat]; });
        body.appendChild(sheetRow(hand, totals, points));
        if (config.game !== "bluke") {
          var drops = hand.record.drops || [];
          over = over || window.LeagueRules.buckWinner(totals, hand.record.tricks, drops) !== null;
        }
        if (hand.problem) {
          list.appendChild(problemItem(hand));
        }
      });
      var none = document.getElementById("no-hands-yet");
      if (none) {
        none.hidden = hands.length > 0;
      }
      var next = config.hands_played + hands.length;
      moveForm(next, over || complete(next));
    });
  }

  /* A Buck Euchre cell's small line, as the server writes it (league/web/sheet.py):
     "dropped", or the tricks ("2 M" for the maker), then a penalty's reason and
     points ("euchred +5", "bucked +5"), read from what the hand scores. */
  function buckSaid(hand, seat, points) {
    var took = hand.record.tricks[seat];
    if ((hand.record.drops || []).indexOf(seat) !== -1) {
      return WORDS.dropped;
    }
    var maker = hand.record.maker === seat;
    var said = String(took) + (maker ? "\u2009" + WORDS.maker : "");
    var penalty = points[seat] + took;
    if (penalty <= 0) {
      return said;
    }
    return said + " " + say(WORDS.penalty, { reason: maker ? WORDS.euchred : WORDS.bucked, points: penalty });
  }

  function sheetRow(hand, totals, points) {
    var row = document.createElement("tr");
    row.className = "waiting-row" + (hand.problem ? " problem" : "");
    var head = document.createElement("th");
    head.scope = "row";
    head.className = "hand";
    head.innerHTML = '<span class="number"></span><span class="waiting-mark"></span>';
    head.firstChild.textContent = String(hand.number + 1);
    head.lastChild.textContent = hand.problem ? WORDS.not_taken : WORDS.waiting_mark;
    row.appendChild(head);
    totals.forEach(function (total, seat) {
      var cell = document.createElement("td");
      cell.className = "line";
      var took = hand.record.tricks[seat];
      var said = config.game === "bluke" ? hand.record.bids[seat] + "/" + took : buckSaid(hand, seat, points);
      cell.innerHTML = '<span class="bid"></span><span class="score"></span>';
      cell.firstChild.textContent = said;
      cell.lastChild.textContent = String(total);
      row.appendChild(cell);
    });
    return row;
  }

  function words(hand) {
    var r = hand.record;
    var seats = config.names.map(function (name, seat) {
      if (config.game === "bluke") {
        return say(WORDS.bid_took, { name: name, bid: r.bids[seat], tricks: r.tricks[seat] });
      }
      if ((r.drops || []).indexOf(seat) !== -1) {
        return say(WORDS.name_dropped, { name: name });
      }
      return say(WORDS.name_took, { name: name, tricks: r.tricks[seat] });
    });
    var trump = r.trump ? say(WORDS.trump, { suit: SUITS[r.trump] || r.trump }) : WORDS.no_trump;
    return say(WORDS.hand_words, { trump: trump, seats: seats.join("; ") });
  }

  function problemItem(hand) {
    var item = document.createElement("li");
    item.className = "waiting-problem";
    var title = document.createElement("p");
    title.className = "refusal";
    title.textContent = say(WORDS.not_taken_title, { number: hand.number + 1, detail: hand.problem.detail });
    item.appendChild(title);
    var mine = document.createElement("p");
    mine.textContent = say(WORDS.yours, { hand: words(hand) });
    item.appendChild(mine);
    if (hand.problem.status === 409) {
      var theirs = document.createElement("p");
      theirs.className = "theirs";
      theirs.textContent = WORDS.theirs_reading;
      item.appendChild(theirs);
      stored(hand.number).then(function (text) { theirs.textContent = say(WORDS.theirs, { hand: text }); });
    }
    var discard = document.createElement("button");
    discard.type = "button";
    discard.className = "secondary";
    discard.textContent = hand.problem.status === 409 ? WORDS.keep_stored : WORDS.drop_mine;
    discard.addEventListener("click", function () {
      drop(hand.key).then(show).then(send);
    });
    item.appendChild(discard);
    if (hand.problem.status === 409 && config.sheet_api) {
      var replace = document.createElement("button");
      replace.type = "button";
      replace.textContent = WORDS.put_mine;
      replace.addEventListener("click", function () { putInPlace(hand); });
      item.appendChild(replace);
    }
    return item;
  }

  function stored(number) {
    return fetch(config.sheet_api, { headers: authOnly(), credentials: "same-origin" })
      .then(function (answer) { return answer.json(); })
      .then(function (sheet) {
        var hand = sheet.hands.filter(function (h) { return h.number === number; })[0];
        if (!hand) {
          return WORDS.not_found;
        }
        return words({ record: {
          trump: hand.trump,
          bids: hand.seats.map(function (s) { return s.bid; }),
          tricks: hand.seats.map(function (s) { return s.tricks; }),
          drops: hand.drops,
        } });
      }, function () { return WORDS.unknown_offline; });
  }

  function authOnly() {
    return config.auth ? { Authorization: config.auth } : {};
  }

  function putInPlace(hand) {
    /* Correct the stored hand to this phone's (PUT, with the sheet's ETag). */
    fetch(config.sheet_api, { headers: authOnly(), credentials: "same-origin" }).then(function (answer) {
      var tag = answer.headers.get("ETag");
      var sent = authOnly();
      sent["Content-Type"] = "application/json";
      sent["If-Match"] = tag;
      if (!config.auth) {
        sent["X-CSRFToken"] = config.csrf;
      }
      var body = { record: hand.record };
      if (config.auth) {
        body.seat = hand.seat;
      }
      return fetch(config.api + hand.number + "/", {
        method: "PUT", headers: sent, body: JSON.stringify(body), credentials: "same-origin",
      });
    }).then(function (answer) {
      if (answer.status === 200) {
        return drop(hand.key).then(function () { window.location.reload(); });
      }
      return answer.json().then(function (problem) {
        hand.problem = { status: answer.status, detail: said(hand, answer.status, problem), code: problem.code || "" };
        return keep(hand).then(show);
      });
    }).catch(show);
  }

  function moveForm(next, over) {
    /* The form of hand ``next`` (counted from 0), dealt as the rules say; none
       once the game is over by the hands waiting. */
    var section = document.getElementById("next-hand");
    section.hidden = over;
    var done = document.getElementById("waiting-complete");
    done.hidden = !over;
    if (over) {
      return;
    }
    var dealer = (config.first_dealer + next) % config.players;
    var cards = config.game === "bluke" ? config.schedule[next] : 5;
    form.elements.namedItem("number").value = String(next);
    section.querySelector("h2").firstChild.textContent = say(WORDS.hand, { number: next + 1 }) + " ";
    var each = WORDS.cards_each[String(cards)] || String(cards);
    section.querySelector("h2 .sub").textContent = say(each, { dealer: config.names[dealer] });
    var submit = form.querySelector("button[type=submit]");
    submit.textContent = say(WORDS.save_hand, { hand_shown: next + 1 });
    var jump = document.getElementById("enter-next");
    if (jump) {
      jump.textContent = say(WORDS.enter_hand, { number: next + 1 });
    }
    var rows = Array.prototype.slice.call(form.querySelectorAll(".seat-row"));
    var holder = rows.length ? rows[0].parentNode : null;
    for (var k = 1; k <= config.players; k += 1) {
      var seat = (dealer + k) % config.players;
      var row = form.querySelector(".seat-row[data-seat='" + seat + "']");
      if (row && holder) {
        holder.appendChild(row); // bidding and leading go round from the dealer's left
        var notes = [];
        if (seat === dealer) {
          notes.push(WORDS.dealer);
        }
        if (k === 1 && config.game === "bluke") {
          notes.push(WORDS.leads);
        }
        var note = row.querySelector(".note");
        if (note) {
          note.textContent = notes.length ? "(" + notes.join(", ") + ")" : "";
        }
      }
    }
    Array.prototype.forEach.call(form.querySelectorAll("input[name^='bid_'], input[name^='tricks_']"), function (input) {
      input.max = String(cards);
    });
  }

  if (form) {
    form.addEventListener("submit", onSubmit);
  }
  window.addEventListener("online", send);
  window.setInterval(function () {
    if (navigator.onLine) {
      send();
    }
  }, RETRY_EVERY);
  show().then(send);
})();
