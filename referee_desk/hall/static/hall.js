// The hall page's live part: listen on /events, fetch this page again when the
// version changes, say "not live since HH:MM" when the stream or the store is away.
(function () {
  "use strict";
  const main = document.getElementById("live");
  const state = document.getElementById("live-state");
  const body = document.body;
  let version = main ? main.dataset.version : "";
  let lastHeard = new Date();
  let serverSince = "";
  let source = null;
  let fetching = false;
  let again = false;

  function hhmm(d) {
    return String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
  }
  function showLive(live, since) {
    if (!state) return;
    state.className = live ? "live" : "stale";
    if (live) { state.textContent = body.dataset.live; return; }
    const text = since ? body.dataset.notLive.replace("{since}", since) : body.dataset.notLiveNever;
    state.textContent = text;
  }

  async function reload() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      const response = await fetch(location.href, { headers: { "X-Hall-Partial": "1" }, cache: "no-store" });
      if (response.ok) {
        main.innerHTML = await response.text();
        main.dataset.version = version;
        startSlides();
      }
    } catch (e) { /* the next message retries */ }
    fetching = false;
    if (again) { again = false; reload(); }
  }

  function connect() {
    source = new EventSource("/events");
    source.addEventListener("status", function (ev) {
      lastHeard = new Date();
      const s = JSON.parse(ev.data);
      serverSince = s.since;
      showLive(s.live, s.since);
      if (String(s.version) !== String(version)) { version = String(s.version); reload(); }
    });
    source.onmessage = function () { lastHeard = new Date(); };
    source.addEventListener("open", function () { lastHeard = new Date(); });
    source.onerror = function () {
      if (source.readyState === EventSource.CLOSED) { setTimeout(connect, 1000); }
    };
  }
  // Pings arrive as comments (no event): the watchdog counts the stream's open state.
  setInterval(function () {
    if (!source || source.readyState !== EventSource.OPEN) {
      showLive(false, serverSince || hhmm(lastHeard));
    } else { lastHeard = new Date(); }
  }, 1000);

  let slideTimer = null;
  function startSlides() {
    if (!body.classList.contains("page-projector")) return;
    const slides = main.querySelectorAll(".slide");
    if (!slides.length) return;
    let shown = Number(body.dataset.slide || 0) % slides.length;
    slides.forEach(function (s, i) { s.classList.toggle("shown", i === shown); });
    if (slideTimer) return;
    slideTimer = setInterval(function () {
      const all = main.querySelectorAll(".slide");
      if (!all.length) return;
      const next = (Number(body.dataset.slide || 0) + 1) % all.length;
      body.dataset.slide = String(next);
      all.forEach(function (s, i) { s.classList.toggle("shown", i === next); });
    }, 1000 * Number(body.dataset.cycle || 12));
  }

  if (main) { connect(); startSlides(); }
})();
