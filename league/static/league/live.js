/* Pages that follow the night by themselves: the room screen and the Tonight
   page ask the server every 1.5 seconds whether their tables have changed
   (league.web.tonight.event_live), sending the ETag they hold. While nothing
   has changed the answer is an empty 304; when a hand, a confirmation or a
   draw has changed something, the answer holds the page's changed parts,
   rendered by the server with the page's own templates, by element id, and
   each one is put in place. A hidden page (a phone in a pocket) asks nothing
   until it is shown again; a failed request is simply tried again at the
   next turn. Without this script the room screen reloads every 30 seconds.
   No external resources. */
(function () {
  "use strict";
  var EVERY = 1500; // a hand shows within 2 s: 1.5 s at most, then the answer
  var root = document.querySelector("[data-live]");
  if (!root || !window.fetch) {
    return;
  }
  var url = root.getAttribute("data-live");
  var tag = root.getAttribute("data-live-tag") || "";
  var timer = null;

  function apply(parts) {
    Object.keys(parts).forEach(function (id) {
      var part = document.getElementById(id);
      if (!part || part.innerHTML === parts[id]) {
        return;
      }
      // a field the organiser is typing in is never replaced under their fingers
      if (part.contains(document.activeElement) && document.activeElement.form) {
        return;
      }
      part.innerHTML = parts[id];
    });
    root.setAttribute("data-live-updated", String(Date.now()));
  }

  function ask() {
    timer = null;
    if (document.hidden) {
      return;
    }
    var headers = tag ? { "If-None-Match": tag } : {};
    fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (answer) {
        if (answer.status !== 200) {
          return null;
        }
        tag = answer.headers.get("ETag") || "";
        return answer.json();
      })
      .then(function (data) {
        if (data && data.parts) {
          apply(data.parts);
        }
      })
      .catch(function () {
        /* the network is down or the server busy: ask again at the next turn */
      })
      .then(later);
  }

  function later() {
    if (timer === null && !document.hidden) {
      timer = window.setTimeout(ask, EVERY);
    }
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      if (timer !== null) {
        window.clearTimeout(timer);
        timer = null;
      }
      ask();
    }
  });
  later();
})();
