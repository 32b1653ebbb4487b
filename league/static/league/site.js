/* Every page: after a refused form, the first problem is brought into view
   and focused (a phone's screen shows a small part of a long page: the
   error of a form at its foot would be out of sight). No external resources. */
(function () {
  "use strict";
  var first = document.querySelector(".error-summary, [role=alert].refusal, .errorlist");
  if (!first) {
    return;
  }
  if (!first.hasAttribute("tabindex")) {
    first.setAttribute("tabindex", "-1");
  }
  first.scrollIntoView({ block: "center" });
  first.focus({ preventScroll: true });
})();
