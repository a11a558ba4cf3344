/* Online play: a small glue around PeerJS that Python (PyScript) calls. JavaScript only because
 * WebRTC and PeerJS live in JavaScript; the protocol, rooms and seats are Python's
 * (py/cribbage/online/, py/web/). Strings only cross this boundary, in both directions: nothing a
 * peer sends is parsed, evaluated or put into the page here; it is handed to Python as a string.
 *
 *   const net = window.cribbageNet;
 *   net.open(myId, onEvent, optionsJson)  register `myId` on the signalling server (closes any
 *                                         previous link of this page first)
 *   net.connect(remoteId)                 open a data channel to a registered peer
 *   net.send(text) -> boolean             send a string on the open channel (false: none open)
 *   net.drop()                            close the channel (e.g. our heartbeat gave up), stay
 *                                         registered so the peer can come back
 *   net.close()                           close everything; no event follows
 *   net.admit(callerId) -> boolean        let a knocking caller (see "knock") replace the channel
 *   net.refuse(callerId, text)            send a knocking caller `text`, close it ~200 ms later
 *   net.status() -> JSON string           {id, registered, remote, channel, ice, signal}
 *   net.route() -> Promise of JSON string  the open channel's selected candidate pair (getStats):
 *                                         {"local": "host"|"srflx"|"prflx"|"relay", "remote": …,
 *                                         "protocol": "udp"|"tcp"}, or "" with no channel or pair
 *   net.signal() -> string                the signalling server this page would use
 *   net.untrusted() -> JSON string        "" if the page's link asks for nothing untrusted, else
 *                                         {"what": "signal"|"relay", "value": what it named}
 *   net.qr(text, onReady) -> string       the QR code of `text` (the room link): its rows of "0"
 *                                         and "1" (dark) joined by "\n", no quiet zone; "" while
 *                                         the encoder loads (onReady() is called once it is there)
 *                                         or if the text cannot be encoded
 *
 * onEvent(kind, peer, detail) is called with three strings (never anything else):
 *   "open",    myId,     signal URL   registered (again after a lost signalling socket came back)
 *   "connect", remoteId, JSON         the data channel is open: {"dir": "in"|"out" (they called us |
 *                                     we called them), "local": FP, "remote": FP}, FP being this
 *                                     end's and the other end's DTLS certificate fingerprint as
 *                                     "sha-256 AB:CD:…" (upper-case hex) from the a=fingerprint:
 *                                     lines of the connection's SDP, or "" if unreadable. Python
 *                                     binds every seat proof to them: a relay (two DTLS connections)
 *                                     shows each side other fingerprints, so no proof passes it
 *   "message", remoteId, text         a string from the peer, exactly as sent
 *   "close",   remoteId, reason       the channel is gone: "closed" (the peer or the network
 *                                     closed it), "dropped" (drop()), "replaced" (the same peer
 *                                     came back on a new channel, or connect() to someone else)
 *   "reach",   remoteId, "in"|"out"    the other browser is registered and a channel is being
 *                                     negotiated with it (it called us, or answered our call); if
 *                                     no "connect" follows, the networks block a direct connection
 *   "full",    thirdId,  ""           a third peer called while busy: it was sent options.busy
 *                                     (or the refusal Python chose) and is closed ~200 ms later
 *                                     (closing at once would leave it with no event at all)
 *   "knock",   callerId, text         (options.screen only) another peer called while a channel is
 *                                     up, and this is a string it sent on its own channel (each
 *                                     one, up to 16), which waits: Python answers admit(callerId) (it replaces the
 *                                     channel: "close" "replaced", "connect", then its strings as
 *                                     "message", this one first) or refuse(callerId, text); with
 *                                     no answer within connectTimeoutMs it is sent options.busy.
 *                                     At most 4 callers wait at once; more are sent busy at once
 *   "error",   peer|"",  code         PeerJS's error type ("peer-unavailable", "unavailable-id",
 *                                     "invalid-id", "network", "server-error", "socket-error",
 *                                     "socket-closed", "webrtc", "negotiation-failed", ...) or
 *                                     ours: "connect-timeout", "open-timeout", "signal-lost",
 *                                     "bad-signal", "untrusted-signal", "bad-message", "no-peerjs",
 *                                     "not-open"
 *
 * The mesh mode (a table of three or four: open() with options.mesh true). One registration, one
 * data channel per other peer id, every one of them at once; the calls above take the peer:
 *   net.connect(remoteId)                 call `remoteId`; the other channels stay as they are. A
 *                                         channel to it already open or opening is left alone (one
 *                                         whose ICE is dead is replaced: "close" "replaced")
 *   net.send(text, remoteId) -> boolean   send on the open channel to `remoteId` (false: none open)
 *   net.drop(remoteId)                    close the channel to `remoteId` ("close" "dropped"), stay
 *                                         registered
 *   net.status() -> JSON string           {id, registered, mesh: true, channels: {peerId:
 *                                         {channel: "open"|"opening", direction, ice}}, signal}
 *   net.route(remoteId)                   that channel's candidate pair, as above
 * Every call from any id is adopted (nobody is busy: no "full", no "knock", options.busy and
 * options.screen unused); a second channel from a peer id replaces its old one ("close"
 * "replaced", then its "reach" and "connect"). Events as above, each naming the peer, with one
 * difference: a channel not open within connectTimeoutMs (each channel its own clock) ends with
 * "close", remoteId, "connect-timeout" (not an "error"). Every channel this mode holds (called or
 * adopted) ends with exactly one "close" (closed | dropped | replaced | connect-timeout), or, for
 * a call to an id nobody holds, "error" remoteId "peer-unavailable"; close() and open() end them
 * all with no event. A page going away (pagehide) closes its channels, so the others are told
 * "close" "closed" at once (the two-player mode leaves that to the heartbeat, as before).
 * The Nostr path (below) in this mode: every seat joins the Trystero room options.nostr.topic (the
 * same for the whole table) and says its id to each peer there; a call is made over the relays
 * when PeerJS is not registered, when the PeerServer says nobody holds the id, or when the callee
 * has not answered over PeerJS NOSTR_AFTER_MS after the call (that PeerJS call, never told, is
 * replaced); a call to an id not heard there yet waits for its hello, within connectTimeoutMs
 * (so with the relays on, a call to an id nobody holds ends "close" "connect-timeout", never
 * "peer-unavailable").
 *
 * optionsJson (a JSON object as a string, all keys optional):
 *   busy              string sent to a third peer (default "busy")
 *   connectTimeoutMs  a channel not open by then is closed with "connect-timeout" (default 10000;
 *                     PeerJS itself never times out: with no ICE candidate it waits forever)
 *   openTimeoutMs     registration not done by then: "open-timeout" (default 10000)
 *   signal            a signalling URL overriding the page's (same form as ?signal=; the same
 *                     allow-list applies)
 *   screen            true: a caller other than the one on the channel is not refused here but
 *                     asked about ("knock"), so Python decides (default false: it is sent busy)
 *   mesh              true: the mesh mode above (default false: one channel, two players)
 *
 * The signalling server, first found wins: `?signal=` in the page URL (e.g.
 * http://127.0.0.1:9000/cribbage, as `make play` prints), the site config
 * <meta name="cribbage-signal" content="URL"> in index.html (empty: not set), then the public
 * PeerJS server (https://0.peerjs.com/). The page's Content-Security-Policy (connect-src) must
 * allow the server's origin.
 *
 * The allow-list: a `?signal=` is used only if it names a server this page trusts: the public
 * PeerJS server, the site's own (the cribbage-signal meta), or one the server of the page names in
 * <meta name="cribbage-signal-allow" content="URL URL…"> (empty as built; py/tools/serve.py
 * --signal/--peerserver writes `make play`'s local PeerServer there). Anything else (and any ICE
 * setting in the link: ?ice=, ?stun=, ?turn=, ?relay=, ?iceServers=) is refused: open() reports
 * "untrusted-signal" and contacts nothing, and untrusted() says what the link asked for, so the
 * page can say so. (A link may not choose the relays either: see cribbage-ice-servers.)
 *
 * STUN/TURN servers: <meta name="cribbage-ice-servers" content='[{"urls": "turn:…", "username":
 * …, "credential": …}]'> (a JSON array of RTCIceServer; site config only, never a link parameter,
 * so a crafted link cannot route play through someone's relay). Not set: with a signalling server
 * on a loopback or private address (no internet) no STUN/TURN server is used (`iceServers: []`,
 * the peers reach each other by their host addresses); otherwise PeerJS's own defaults.
 * <meta name="cribbage-ice-policy" content="relay"> (site config only, with the servers above)
 * makes every connection go through those TURN servers (iceTransportPolicy "relay": no host or
 * STUN candidate is offered, so neither browser learns the other's addresses).
 *
 * The PeerJS client (vendored by py/tools/build_site.py, named by this script's data-peerjs
 * attribute) is loaded on the first open(), so a start of the page does not pay for it; the QR
 * encoder (uqr, an ES module named by data-qr) is imported on the first qr() likewise.
 * The second signalling path (issue 31): Nostr relays, through Trystero's Nostr strategy (vendored,
 * named by data-nostr, imported on the first open() that asks for it). options.nostr =
 * {"topic": the host's signalling id, "key": a key derived from the room secret} (Python's
 * link.nostr_key; none for a room without a secret: PeerJS only). Both seats join the Trystero room
 * `topic` under password `key` (Trystero hashes the topic and encrypts the SDP it sends over the
 * relays with AES-GCM under the key: a relay sees neither the room id nor the secret), say their
 * signalling id to each peer found there ("hello"), and a caller that chooses this path says whom
 * it calls ("pick"): from then on that Trystero peer is a channel like a PeerJS one, same events.
 * The order: the caller tries PeerJS first and Nostr NOSTR_AFTER_MS later if the host has not
 * answered over PeerJS by then (at once when PeerJS is not registered or says the host is not
 * there; a call the host answered is left to finish: ICE is the same on both paths, and switching
 * then would make the host drop a channel about to open); the host listens on both.
 * "open" is told once either path is registered; PeerJS's registration errors are not told while
 * the Nostr path is on (it may still connect). Relays: <meta name="cribbage-nostr-relays"
 * content="wss://… wss://…"> (site config, never a link; "off": PeerJS only), else NOSTR_RELAYS
 * (none when the signalling server is on a loopback or private address: no internet is assumed).
 * status().path and the "connect" detail's "path" say which path the channel came by.
 * A killed browser or a lost network is reported by nothing here (WebRTC's ICE goes
 * "disconnected" and PeerJS fires neither close nor error): Python's heartbeat over the channel
 * must notice it, then call drop(). status().ice shows the ICE state meanwhile.
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var PEERJS_URL = (script && script.dataset.peerjs) || "";
  var QR_URL = (script && script.dataset.qr) || "";
  var CLOUD = "https://0.peerjs.com/";
  var REFUSE_CLOSE_MS = 200;
  var MAX_KNOCKING = 4;
  var MAX_KNOCK_TEXTS = 16;
  var RECONNECT_MS = [1000, 2000, 4000, 8000, 15000, 30000];
  var NOSTR_URL = (script && script.dataset.nostr) || "";
  /** Public relays used when the site names none: long-running ones on strfry / nostr-rs-relay
   *  that pass ephemeral events (kinds 20000-29999, what Trystero sends) and allow anonymous keys. */
  var NOSTR_RELAYS = ["wss://nos.lol", "wss://relay.damus.io", "wss://relay.primal.net", "wss://relay.nostr.band"];
  var NOSTR_APP = "cribbage-net-1";
  var NOSTR_AFTER_MS = 3000;
  var PEERJS_DOWN = ["network", "server-error", "socket-error", "socket-closed", "unavailable-id", "open-timeout"];
  var ID_RE = /^[A-Za-z0-9_-]{1,100}$/;

  var peerjsLoading = null;
  /** Load the vendored PeerJS client once (a same-origin classic script: the CSP allows it). */
  function loadPeerJS() {
    if (window.peerjs && window.peerjs.Peer) return Promise.resolve(window.peerjs);
    if (!peerjsLoading) {
      peerjsLoading = new Promise(function (resolve, reject) {
        if (!PEERJS_URL) return reject(new Error("net.js: no data-peerjs attribute"));
        var tag = document.createElement("script");
        tag.src = PEERJS_URL;
        tag.onload = function () {
          if (window.peerjs && window.peerjs.Peer) resolve(window.peerjs);
          else reject(new Error("net.js: PeerJS loaded without window.peerjs.Peer"));
        };
        tag.onerror = function () {
          reject(new Error("net.js: could not load " + PEERJS_URL));
        };
        document.head.appendChild(tag);
      });
      peerjsLoading.catch(function () {
        peerjsLoading = null; // let a later open() try again
      });
    }
    return peerjsLoading;
  }

  var qrModule = null;
  var qrLoading = null;
  /** The room link's QR code (see the header): the text as UTF-8 in byte mode (as the page always
   *  drew it), error correction M, the smallest version and the mask of lowest penalty (uqr's). */
  function qr(text, onReady) {
    if (qrModule) {
      try {
        var bytes = Array.from(new TextEncoder().encode(String(text)));
        var rows = qrModule.encode(bytes, { ecc: "M", border: 0 }).data;
        return rows.map(function (row) {
          return row.map(function (dark) { return dark ? "1" : "0"; }).join("");
        }).join("\n");
      } catch (e) {
        return ""; // too long for a QR code
      }
    }
    if (!qrLoading) {
      // a same-origin module (the CSP's script-src 'self' allows it), resolved against the page
      // (a classic script's import() would resolve it against this script's URL)
      qrLoading = QR_URL ? import(new URL(QR_URL, document.baseURI).href)
        : Promise.reject(new Error("net.js: no data-qr attribute"));
      qrLoading.then(function (module) {
        qrModule = module;
      }, function () {
        qrLoading = null; // let a later qr() try again
      });
    }
    qrLoading.then(function () {
      if (typeof onReady === "function") onReady();
    }, function () {});
    return "";
  }

  var nostrLoading = null;
  /** Import the vendored Trystero Nostr strategy once (same-origin ES modules). */
  function loadNostr() {
    if (!nostrLoading) {
      nostrLoading = NOSTR_URL ? import(new URL(NOSTR_URL, document.baseURI).href)
        : Promise.reject(new Error("net.js: no data-nostr attribute"));
      nostrLoading.catch(function () {
        nostrLoading = null;
      });
    }
    return nostrLoading;
  }

  /** The Nostr relays this site uses (see the header): [] when "off" or none usable. A ws:// relay
   *  only on a loopback or private address. Not set: the public ones, unless the signalling server
   *  `signal` is on a loopback or private address (`make play`, a network with no internet, the
   *  tests): such a page contacts nothing on the internet unless the site names it. */
  function nostrRelays(signal) {
    var text = metaContent("cribbage-nostr-relays");
    if (text === "off") return [];
    if (!text) {
      var host = "";
      try {
        host = new URL(signal).hostname;
      } catch (e) { /* not a URL: the public relays */ }
      return PRIVATE_HOST.some(function (re) { return re.test(host); }) ? [] : NOSTR_RELAYS.slice();
    }
    return text.split(/\s+/).filter(function (u) {
      var url;
      try {
        url = new URL(u);
      } catch (e) {
        return false;
      }
      if (url.username || url.password || url.search || url.hash) return false;
      if (url.protocol === "wss:") return true;
      return url.protocol === "ws:" && PRIVATE_HOST.some(function (re) { return re.test(url.hostname); });
    });
  }

  function metaContent(name) {
    var meta = document.querySelector('meta[name="' + name + '"]');
    return (meta && (meta.getAttribute("content") || "").trim()) || "";
  }

  function linkParam(name) {
    try {
      return new URLSearchParams(window.location.search).get(name) || "";
    } catch (e) {
      return ""; // no URLSearchParams: nothing read from the link
    }
  }

  /** The site's own signalling URL: the cribbage-signal meta, else the public PeerJS server. */
  function siteSignal() {
    return metaContent("cribbage-signal") || CLOUD;
  }

  /** The configured signalling URL (string), before validation. */
  function configuredSignal() {
    return linkParam("signal") || siteSignal();
  }

  var ICE_PARAMS = ["ice", "iceServers", "stun", "turn", "relay"];

  /** A signalling URL as one comparable string ("" if it is not usable): scheme family, host,
   *  port and path without trailing slashes. */
  function serverKey(text) {
    var options = signalOptions(text);
    if (!options) return "";
    var path = options.path.replace(/\/+$/, "") || "/";
    return [options.secure ? "s" : "p", options.host.toLowerCase(), options.port, path].join("|");
  }

  /** Whether this page may use the signalling server `text` (see the allow-list above). */
  function trusted(text) {
    var key = serverKey(text);
    if (!key) return false;
    var allowed = [CLOUD, siteSignal()].concat(metaContent("cribbage-signal-allow").split(/\s+/));
    return allowed.some(function (url) { return url && serverKey(url) === key; });
  }

  /** What the page's link asks for that this page does not trust, as JSON, or "". */
  function untrusted() {
    for (var i = 0; i < ICE_PARAMS.length; i++) {
      var relay = linkParam(ICE_PARAMS[i]);
      if (relay) return JSON.stringify({ what: "relay", value: relay });
    }
    var signal = linkParam("signal");
    if (signal && !trusted(signal)) return JSON.stringify({ what: "signal", value: signal });
    return "";
  }

  /** The site's STUN/TURN servers (cribbage-ice-servers meta), or null when not set or unusable. */
  function siteIceServers() {
    var text = metaContent("cribbage-ice-servers");
    if (!text) return null;
    var list;
    try {
      list = JSON.parse(text);
    } catch (e) {
      list = null;
    }
    function ok(server) {
      if (!server || typeof server !== "object") return false;
      var urls = typeof server.urls === "string" ? [server.urls] : server.urls;
      if (!Array.isArray(urls) || !urls.length) return false;
      if (!urls.every(function (u) { return typeof u === "string" && /^(stun|stuns|turn|turns):/.test(u); })) {
        return false;
      }
      return ["username", "credential"].every(function (k) {
        return server[k] === undefined || typeof server[k] === "string";
      });
    }
    if (!Array.isArray(list) || !list.every(ok)) {
      console.warn("net.js: the cribbage-ice-servers meta is not a JSON array of STUN/TURN servers; ignored");
      return null;
    }
    return list;
  }

  var PRIVATE_HOST = [
    /^127\./, /^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./,
    /^\[?::1\]?$/, /^\[?f[cd][0-9a-f]{2}:/i, /^\[?fe80:/i, /^localhost$/i, /\.local$/i,
  ];

  /** PeerJS options for a signalling URL, or null when it is not a usable URL. */
  function signalOptions(text) {
    var url;
    try {
      url = new URL(text);
    } catch (e) {
      return null;
    }
    var secure = url.protocol === "https:" || url.protocol === "wss:";
    if (!secure && url.protocol !== "http:" && url.protocol !== "ws:") return null;
    if (url.username || url.password || url.search || url.hash || !url.hostname) return null;
    var host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    var options = {
      host: host,
      port: Number(url.port) || (secure ? 443 : 80),
      path: url.pathname || "/",
      secure: secure,
    };
    var ice = siteIceServers();
    if (ice) {
      options.config = { iceServers: ice };
      if (metaContent("cribbage-ice-policy") === "relay") options.config.iceTransportPolicy = "relay";
    } else if (PRIVATE_HOST.some(function (re) { return re.test(url.hostname); })) {
      options.config = { iceServers: [] }; // no internet: host candidates only, no public STUN
    }
    return options;
  }

  // The one link of this page.
  var peer = null;
  var handler = null;
  var settings = null;
  var current = null; // the DataConnection Python talks to (open or opening)
  var currentDir = "";
  var iceState = "";
  var timers = [];
  var generation = 0; // bumped by open()/close(): events of an older link are ignored
  var reconnectTry = 0;
  var signalUrl = "";
  var knocking = {}; // caller id -> {conn, texts}: callers waiting for Python's verdict ("knock")
  var nostr = null; // the Nostr path of this link: {room, hello, pick, data, bye, ids, conns, ready}
  var nostrWanted = ""; // (caller) the id to call over Nostr once its hello is heard
  var announced = false; // "open" told for this open()
  var myself = "";
  var mesh = null; // the mesh mode's channels: {peerId: {conn, dir, opened, reached, timeout}}

  function later(fn, ms) {
    var id = setTimeout(fn, ms);
    timers.push(id);
    return id;
  }

  function emit(kind, who, detail) {
    if (!handler) return;
    try {
      handler(String(kind), String(who || ""), String(detail == null ? "" : detail));
    } catch (error) {
      console.error("net.js: the event handler failed on " + kind + ":", error);
    }
  }

  /** The sha-256 certificate fingerprint an SDP names ("sha-256 AB:…"), or "" if none or several differ. */
  function fingerprintOf(description) {
    var sdp = description && typeof description.sdp === "string" ? description.sdp : "";
    var found = "";
    var lines = sdp.split(/\r?\n/);
    for (var i = 0; i < lines.length; i++) {
      var m = /^a=fingerprint:(\S+)\s+([0-9A-Fa-f:]+)\s*$/.exec(lines[i]);
      if (!m || m[1].toLowerCase() !== "sha-256") continue;
      var fp = "sha-256 " + m[2].toUpperCase();
      if (found && found !== fp) return ""; // two certificates: refuse to choose
      found = fp;
    }
    return found;
  }

  /** The channel's binding: both ends' fingerprints, read once it is open. */
  function bindingOf(conn, dir) {
    var pc = conn.peerConnection;
    var local = "";
    var remote = "";
    try {
      local = fingerprintOf(pc && pc.localDescription);
      remote = fingerprintOf(pc && pc.remoteDescription);
    } catch (e) { /* unreadable: Python proves nothing on this channel */ }
    return JSON.stringify({ dir: dir, local: local, remote: remote, path: conn.path || "peerjs" });
  }

  /** Run `fn` once `conn`'s connection holds the other end's description (so its fingerprint): on
   *  loopback the caller's data channel can open before the callee's answer has come back through
   *  the signalling server (signalingState still "have-local-offer"), and its binding would be
   *  unreadable. The channel's connect timeout still runs meanwhile. */
  function whenAnswered(conn, fn) {
    var pc = conn.peerConnection;
    if (!pc || pc.remoteDescription || typeof pc.addEventListener !== "function") {
      fn();
      return;
    }
    var done = false;
    function check() {
      if (done || !pc.remoteDescription) return;
      done = true;
      pc.removeEventListener("signalingstatechange", check);
      fn();
    }
    pc.addEventListener("signalingstatechange", check);
  }

  function isDead(conn) {
    var pc = conn.peerConnection;
    var state = pc ? pc.iceConnectionState : "";
    return state === "disconnected" || state === "failed" || state === "closed";
  }

  /** Close `conn` without telling Python (it has been reported, or never was). */
  function quietClose(conn) {
    conn.__netQuiet = true;
    try {
      conn.close();
    } catch (e) { /* already closed */ }
  }

  function release(reason) {
    var conn = current;
    if (!conn) return;
    current = null;
    currentDir = "";
    iceState = "";
    quietClose(conn);
    emit("close", conn.peer, reason);
  }

  /** Make `conn` the link's channel and wire its events (dir: "in" or "out"). `early`: an admitted
   *  caller's strings so far (its channel is open already: "connect" and they follow at once). */
  function adopt(conn, dir, early) {
    var gen = generation;
    current = conn;
    currentDir = dir;
    iceState = "";
    var opened = false; // "connect" told
    var opening = false;
    var held = early ? early.slice() : []; // strings that came before "connect" was told
    var timeout = later(function () {
      if (gen !== generation || opened || current !== conn) return;
      current = null;
      currentDir = "";
      quietClose(conn);
      emit("error", conn.peer, "connect-timeout");
    }, settings.connectTimeoutMs);
    var reached = false;
    function reach() {
      if (reached || opened || gen !== generation || current !== conn) return;
      reached = true;
      emit("reach", conn.peer, dir);
    }
    if (dir === "in") {
      later(reach, 0); // it called us: it is registered (after Python heard of the channel)
    } else if (conn.peerConnection && conn.peerConnection.addEventListener) {
      // it answered our offer: registered, and willing
      conn.peerConnection.addEventListener("signalingstatechange", function () {
        var pc = conn.peerConnection;
        if (pc && pc.signalingState === "stable" && pc.remoteDescription) reach();
      });
    }
    function onOpen() {
      if (gen !== generation || current !== conn || opening) return;
      opening = true;
      whenAnswered(conn, function () {
        if (gen !== generation || current !== conn || opened) return;
        opened = true;
        clearTimeout(timeout);
        emit("connect", conn.peer, bindingOf(conn, dir));
        var texts = held || [];
        held = null;
        texts.forEach(function (text) {
          if (gen === generation && current === conn) emit("message", conn.peer, text);
        });
      });
    }
    if (early) later(onOpen, 0); // (not inside Python's call of admit())
    else conn.on("open", onOpen);
    conn.on("data", function (data) {
      if (gen !== generation || current !== conn) return;
      if (typeof data !== "string") emit("error", conn.peer, "bad-message"); // net.js sends strings only
      else if (held) held.push(data);
      else emit("message", conn.peer, data);
    });
    conn.on("iceStateChanged", function (state) {
      if (current === conn) iceState = String(state);
    });
    conn.on("close", function () {
      if (gen !== generation || conn.__netQuiet || current !== conn) return;
      clearTimeout(timeout);
      current = null;
      currentDir = "";
      emit("close", conn.peer, "closed");
    });
    conn.on("error", function (error) {
      if (gen !== generation || conn.__netQuiet || current !== conn) return;
      emit("error", conn.peer, (error && error.type) || "webrtc");
    });
  }

  // ---- the mesh mode (see the header): one channel per other peer id --------------------------

  /** Hold `conn` as the mesh's channel to its peer and wire its events (dir: "in" or "out"). */
  function meshAdopt(conn, dir) {
    var gen = generation;
    var chans = mesh;
    var who = String(conn.peer);
    var entry = { conn: conn, dir: dir, opened: false, reached: false, timeout: null, held: [] };
    chans[who] = entry;
    function mine() {
      return gen === generation && mesh === chans && chans[who] === entry;
    }
    entry.timeout = later(function () {
      if (!mine() || entry.opened) return;
      delete chans[who];
      quietClose(conn);
      emit("close", who, "connect-timeout");
    }, settings.connectTimeoutMs);
    function reach() {
      if (entry.reached || entry.opened || !mine()) return;
      entry.reached = true;
      emit("reach", who, dir);
    }
    if (dir === "in") {
      later(reach, 0);
    } else if (conn.peerConnection && conn.peerConnection.addEventListener) {
      conn.peerConnection.addEventListener("signalingstatechange", function () {
        var pc = conn.peerConnection;
        if (pc && pc.signalingState === "stable" && pc.remoteDescription) reach();
      });
    }
    var opening = false;
    conn.on("open", function () {
      if (!mine() || opening) return;
      opening = true;
      whenAnswered(conn, function () {
        if (!mine() || entry.opened) return;
        entry.opened = true;
        clearTimeout(entry.timeout);
        emit("connect", who, bindingOf(conn, dir));
        var texts = entry.held;
        entry.held = null;
        texts.forEach(function (text) {
          if (mine()) emit("message", who, text);
        });
      });
    });
    conn.on("data", function (data) {
      if (!mine()) return;
      if (typeof data !== "string") emit("error", who, "bad-message"); // net.js sends strings only
      else if (entry.held) entry.held.push(data); // before "connect" was told
      else emit("message", who, data);
    });
    conn.on("close", function () {
      if (conn.__netQuiet || !mine()) return;
      clearTimeout(entry.timeout);
      delete chans[who];
      emit("close", who, "closed");
    });
    conn.on("error", function (error) {
      if (conn.__netQuiet || !mine()) return;
      emit("error", who, (error && error.type) || "webrtc");
    });
  }

  /** End the mesh's channel to `who` (if any) and say so: "close", who, reason. */
  function meshRelease(who, reason) {
    var entry = mesh && mesh[who];
    if (!entry) return;
    delete mesh[who];
    clearTimeout(entry.timeout);
    quietClose(entry.conn);
    emit("close", who, reason);
  }

  function meshIncoming(conn) {
    if (conn.serialization !== "raw") {
      quietClose(conn); // not net.js at the other end
      emit("error", conn.peer, "bad-message");
      return;
    }
    meshRelease(String(conn.peer), "replaced"); // the same peer came back (a reload, a new call)
    meshAdopt(conn, "in");
  }

  function meshConnect(who) {
    var viaPeer = !!(peer && peer.open);
    if (!viaPeer && !(nostr && nostr.ready)) {
      emit("error", who, "not-open");
      return;
    }
    if (!ID_RE.test(who) || who === myself) {
      emit("error", who, "invalid-id");
      return;
    }
    var entry = mesh[who];
    if (entry) {
      if (!isDead(entry.conn)) return; // open or opening: left alone
      meshRelease(who, "replaced");
    }
    if (!viaPeer) {
      meshNostrCall(who);
      return;
    }
    var conn = peer.connect(who, { reliable: true, serialization: "raw" });
    meshAdopt(conn, "out");
    if (nostr) {
      var gen = generation;
      later(function () { // PeerJS first; the relays if the callee has not answered by then
        var now = mesh && mesh[who];
        var pc = conn.peerConnection;
        if (gen === generation && now && now.conn === conn && !now.opened && !(pc && pc.remoteDescription)) {
          meshNostrCall(who);
        }
      }, NOSTR_AFTER_MS);
    }
  }

  /** (mesh) Call `who` over the relays: now if its hello was heard, else when it is (within the
   *  connect timeout: else "close" who "connect-timeout"). A PeerJS call to it still opening stays
   *  until the relays' channel replaces it. `again`: the relays just came up (no new clock). */
  function meshNostrCall(who, again) {
    if (!nostr || !mesh) return;
    for (var pid in nostr.ids) {
      if (nostr.ids[pid] === who) {
        meshNostrPick(pid, who);
        return;
      }
    }
    if (nostr.wants[who] || again) return; // already waiting for its hello
    nostr.wants[who] = true;
    var gen = generation;
    var state = nostr;
    later(function () {
      if (gen !== generation || nostr !== state || !state.wants[who]) return;
      delete state.wants[who];
      if (mesh[who]) return; // a channel is there after all (theirs, or PeerJS's: its own clock)
      emit("close", who, "connect-timeout");
    }, settings.connectTimeoutMs);
  }

  function meshNostrPick(pid, who) {
    if (!nostr || !nostr.room || !mesh) return;
    delete nostr.wants[who];
    var entry = mesh[who];
    if (entry && (entry.opened || entry.dir !== "out")) return; // open, or they are calling us
    if (entry) { // our PeerJS call, still opening: the relays' channel replaces it (nothing was told)
      delete mesh[who];
      clearTimeout(entry.timeout);
      quietClose(entry.conn);
    }
    var old = nostr.conns[pid];
    if (old) old._gone();
    nostr.tell(nostr.pick, { to: who }, pid);
    meshAdopt(nostrConn(nostr, pid, who), "out");
  }

  /** PeerJS's "peer-unavailable" in the mesh mode: the call to that id ends (it names the id only
   *  in its message). Stale when that call is gone already (our timeout, their call replaced it). */
  function meshUnavailable(error) {
    var found = /Could not connect to peer (\S+)/.exec(String((error && error.message) || ""));
    var who = found ? found[1] : "";
    var entry = who && mesh[who];
    if (!entry || entry.opened || entry.dir !== "out") return;
    delete mesh[who];
    clearTimeout(entry.timeout);
    quietClose(entry.conn);
    if (nostr) meshNostrCall(who); // not on the PeerServer: perhaps on the relays
    else emit("error", who, "peer-unavailable");
  }

  function meshSend(text, who) {
    var entry = mesh[who];
    if (!entry || !entry.opened || !entry.conn.open) return false;
    try {
      entry.conn.send(String(text));
      return true;
    } catch (error) {
      console.error("net.js: send failed:", error);
      return false;
    }
  }

  function meshStatus() {
    var channels = {};
    Object.keys(mesh).forEach(function (who) {
      var entry = mesh[who];
      var pc = entry.conn.peerConnection;
      channels[who] = {
        channel: entry.opened ? "open" : "opening",
        direction: entry.dir,
        ice: pc ? String(pc.iceConnectionState) : "",
      };
    });
    return JSON.stringify({
      id: peer && peer.id ? peer.id : "",
      registered: !!(peer && peer.open),
      mesh: true,
      channels: channels,
      signal: signalUrl || configuredSignal(),
    });
  }

  /** A third peer while busy: accept, send `text` (the busy string), close ~200 ms later. */
  function refuseConn(conn, text) {
    conn.__netQuiet = true;
    var done = false;
    function finish() {
      if (done) return;
      done = true;
      try {
        conn.close();
      } catch (e) { /* already closed */ }
    }
    function tell() {
      try {
        conn.send(typeof text === "string" ? text : settings.busy);
      } catch (e) { /* it left already */ }
      emit("full", conn.peer, "");
      later(finish, REFUSE_CLOSE_MS);
    }
    if (conn.open) tell();
    else conn.on("open", tell);
    later(finish, settings.connectTimeoutMs);
  }

  /** Another caller while the channel is up (options.screen): hold its channel, hand its first
   *  string to Python ("knock") and wait for admit() or refuse(). */
  function knock(conn) {
    var gen = generation;
    var who = String(conn.peer);
    var waiting = knocking[who];
    if (waiting) {
      delete knocking[who];
      quietClose(waiting.conn); // the same caller again: its newer channel waits instead
    }
    if (Object.keys(knocking).length >= MAX_KNOCKING) {
      refuseConn(conn);
      return;
    }
    var entry = { conn: conn, texts: [] };
    knocking[who] = entry;
    conn.__netQuiet = true; // nothing of it reaches Python but the knock, unless admitted
    conn.on("data", function (data) {
      if (gen !== generation || knocking[who] !== entry) return;
      if (typeof data !== "string" || entry.texts.length >= MAX_KNOCK_TEXTS) {
        delete knocking[who];
        refuseConn(conn);
        return;
      }
      entry.texts.push(data);
      emit("knock", who, data); // (Python waits for its hello: it may answer a later one)
    });
    conn.on("close", function () {
      if (knocking[who] === entry) delete knocking[who];
    });
    later(function () {
      if (knocking[who] !== entry) return;
      delete knocking[who];
      refuseConn(conn); // no first string, or no verdict, in time
    }, settings.connectTimeoutMs);
  }

  function admit(callerId) {
    var who = String(callerId || "");
    var entry = knocking[who];
    if (!entry) return false;
    delete knocking[who];
    var conn = entry.conn;
    if (!conn.open) {
      quietClose(conn);
      return false;
    }
    conn.__netQuiet = false;
    if (current) release("replaced");
    adopt(conn, "in", entry.texts);
    return true;
  }

  function refuse(callerId, text) {
    var who = String(callerId || "");
    var entry = knocking[who];
    if (!entry) return;
    delete knocking[who];
    refuseConn(entry.conn, String(text == null ? settings.busy : text));
  }

  function onIncoming(conn) {
    if (conn.serialization !== "raw") {
      quietClose(conn); // not net.js at the other end: PeerJS would decode its data for us
      emit("error", conn.peer, "bad-message");
      return;
    }
    if (current && current.peer !== conn.peer && !isDead(current)) {
      if (settings.screen) knock(conn);
      else refuseConn(conn);
      return;
    }
    if (current) release("replaced"); // the same peer came back, or ours was dead
    adopt(conn, "in");
  }

  function parseOptions(json) {
    var given = {};
    if (json) {
      try {
        given = JSON.parse(String(json)) || {};
      } catch (e) {
        given = {};
        console.error("net.js: options are not JSON; using the defaults");
      }
    }
    function ms(value, fallback) {
      var n = Number(value);
      return isFinite(n) && n > 0 ? n : fallback;
    }
    return {
      busy: typeof given.busy === "string" ? given.busy : "busy",
      connectTimeoutMs: ms(given.connectTimeoutMs, 10000),
      openTimeoutMs: ms(given.openTimeoutMs, 10000),
      signal: typeof given.signal === "string" && given.signal ? given.signal : "",
      screen: given.screen === true,
      mesh: given.mesh === true,
      nostr: given.nostr && typeof given.nostr === "object" && typeof given.nostr.topic === "string" &&
        typeof given.nostr.key === "string" && given.nostr.topic && given.nostr.key.length >= 16 ? given.nostr : null,
    };
  }

  function teardown() {
    generation += 1;
    timers.forEach(clearTimeout);
    timers = [];
    if (current) quietClose(current);
    Object.keys(knocking).forEach(function (who) { quietClose(knocking[who].conn); });
    knocking = {};
    if (mesh) {
      var held = mesh;
      Object.keys(held).forEach(function (who) { quietClose(held[who].conn); });
    }
    mesh = null;
    current = null;
    currentDir = "";
    iceState = "";
    if (peer) {
      try {
        peer.destroy();
      } catch (e) { /* already gone */ }
    }
    peer = null;
    reconnectTry = 0;
    if (nostr && nostr.room) {
      var leaving = nostr.room;
      Promise.resolve().then(function () { return leaving.leave(); }).catch(function () {});
    }
    nostr = null;
    nostrWanted = "";
    announced = false;
  }

  function open(myId, onEvent, optionsJson) {
    teardown();
    var gen = generation;
    handler = typeof onEvent === "function" ? onEvent : null;
    settings = parseOptions(optionsJson);
    var id = String(myId || "");
    signalUrl = settings.signal || configuredSignal();
    var options = signalOptions(signalUrl);
    if (!options) {
      emit("error", "", "bad-signal");
      return;
    }
    if (!trusted(signalUrl) || (!settings.signal && untrusted())) {
      emit("error", "", "untrusted-signal"); // and nothing is contacted
      return;
    }
    myself = id;
    if (settings.mesh) mesh = Object.create(null); // no prototype: any id is a plain key
    var relays = settings.nostr ? nostrRelays(signalUrl) : [];
    if (relays.length) nostrOpen(gen, id, settings.nostr, relays);
    loadPeerJS().then(function (peerjs) {
      if (gen !== generation) return;
      var registered = false;
      var created = new peerjs.Peer(id, Object.assign({ debug: 0 }, options));
      peer = created;
      later(function () {
        if (gen === generation && !registered) {
          if (nostr && nostr.ready) { // PeerJS unreachable: the relays carry this link
            try {
              created.destroy();
            } catch (e) { /* gone */ }
            if (peer === created) peer = null;
            return;
          }
          emit("error", "", "open-timeout");
          teardown();
        }
      }, settings.openTimeoutMs);
      created.on("open", function (registeredId) {
        if (gen !== generation) return;
        var again = registered || !announced;
        registered = true;
        reconnectTry = 0;
        if (again) {
          announced = true;
          emit("open", registeredId, signalUrl);
        }
      });
      created.on("connection", function (conn) {
        if (gen !== generation) return;
        if (mesh) meshIncoming(conn);
        else onIncoming(conn);
      });
      created.on("disconnected", function () {
        if (gen !== generation || created.destroyed) return;
        if (!(nostr && nostr.ready)) emit("error", "", "signal-lost"); // channels stay up; new ones need the server again
        var wait = RECONNECT_MS[Math.min(reconnectTry, RECONNECT_MS.length - 1)];
        reconnectTry += 1;
        later(function () {
          if (gen !== generation || created.destroyed || !created.disconnected) return;
          try {
            created.reconnect();
          } catch (e) { /* it will report */ }
        }, wait);
      });
      created.on("error", function (error) {
        if (gen !== generation) return;
        var type = (error && error.type) || "webrtc";
        var who = "";
        if (type === "peer-unavailable" && mesh) {
          meshUnavailable(error);
          return;
        }
        if (type === "peer-unavailable") {
          // The peer we called is not registered (the server says so after its expire_timeout,
          // ~5 s). Stale when our own connect timeout came first: already reported.
          if (!current || current.open || currentDir !== "out") return;
          who = current.peer;
          quietClose(current);
          current = null;
          currentDir = "";
          if (nostr) { // not on the PeerServer: perhaps on the relays
            nostrCall(who);
            return;
          }
        }
        if (nostr && PEERJS_DOWN.indexOf(type) >= 0) return; // the Nostr path may still connect
        emit("error", who, type);
      });
    }, function (error) {
      if (gen !== generation) return;
      console.error(error);
      if (!nostr) emit("error", "", "no-peerjs");
    });
  }

  /** The RTCConfiguration of the Nostr path: the site's servers (and policy) if named; none when
   *  every relay is on a private address (no internet); else Trystero's defaults (public STUN). */
  function nostrRtc(relays) {
    var ice = siteIceServers();
    if (ice) {
      var config = { iceServers: ice };
      if (metaContent("cribbage-ice-policy") === "relay") config.iceTransportPolicy = "relay";
      return config;
    }
    var local = relays.every(function (u) {
      var host = new URL(u).hostname;
      return PRIVATE_HOST.some(function (re) { return re.test(host); });
    });
    return local ? { iceServers: [] } : undefined;
  }

  function parseSmall(text) {
    if (typeof text !== "string" || text.length > 300) return null;
    try {
      var value = JSON.parse(text);
      return value && typeof value === "object" ? value : null;
    } catch (e) {
      return null;
    }
  }

  /** Join the Trystero room of this link on the relays (see the header). */
  function nostrOpen(gen, id, cfg, relays) {
    var state = { room: null, ids: {}, conns: {}, ready: false, wants: Object.create(null) };
    nostr = state;
    loadNostr().then(function (mod) {
      if (gen !== generation || nostr !== state) return;
      var config = { appId: NOSTR_APP, password: cfg.key, relayConfig: { urls: relays, warnOnRelayFailure: false } };
      var rtc = nostrRtc(relays);
      if (rtc) config.rtcConfig = rtc;
      var room = mod.joinRoom(config, cfg.topic);
      state.room = room;
      state.hello = room.makeAction("hello");
      state.pick = room.makeAction("pick");
      state.data = room.makeAction("m");
      state.bye = room.makeAction("bye");
      function tell(action, value, pid) {
        action.send(typeof value === "string" ? value : JSON.stringify(value), { target: pid }).catch(function () {});
      }
      state.tell = tell;
      room.onPeerJoin = function (pid) {
        if (gen === generation && nostr === state) tell(state.hello, { id: id }, pid);
      };
      room.onPeerLeave = function (pid) {
        delete state.ids[pid];
        var conn = state.conns[pid];
        if (conn) conn._gone();
      };
      state.hello.onMessage = function (text, meta) {
        var said = parseSmall(text);
        var pid = meta && meta.peerId;
        if (gen !== generation || nostr !== state || !said || typeof said.id !== "string" || !ID_RE.test(said.id)) return;
        state.ids[pid] = said.id;
        if (mesh) {
          if (state.wants[said.id]) meshNostrPick(pid, said.id);
        } else if (nostrWanted === said.id) nostrPick(pid, said.id);
      };
      state.pick.onMessage = function (text, meta) {
        var said = parseSmall(text);
        var pid = meta && meta.peerId;
        var who = state.ids[pid];
        if (gen !== generation || nostr !== state || !said || said.to !== id || !who) return;
        var old = state.conns[pid];
        if (old) old._gone();
        if (mesh) meshIncoming(nostrConn(state, pid, who));
        else onIncoming(nostrConn(state, pid, who));
      };
      state.data.onMessage = function (text, meta) {
        var conn = state.conns[meta && meta.peerId];
        if (conn && gen === generation) conn._fire("data", text);
      };
      state.bye.onMessage = function (text, meta) {
        var conn = state.conns[meta && meta.peerId];
        if (conn) conn._gone();
      };
      var poll = function () {
        if (gen !== generation || nostr !== state) return;
        var sockets = mod.getRelaySockets ? mod.getRelaySockets() : {};
        var up = Object.keys(sockets).some(function (u) { return sockets[u] && sockets[u].readyState === 1; });
        if (up && !state.ready) {
          state.ready = true;
          if (!announced) {
            announced = true;
            emit("open", id, signalUrl);
          }
          if (mesh) Object.keys(state.wants).forEach(function (who) { meshNostrCall(who, true); });
          else if (nostrWanted && !current) nostrCall(nostrWanted);
        }
        if (!state.ready) later(poll, 100);
      };
      poll();
    }, function (error) {
      if (gen !== generation) return;
      console.warn("net.js: no Nostr path:", error && error.message);
      if (nostr === state) nostr = null;
    });
  }

  /** A Trystero peer as a PeerJS-like channel (open already; "data", "close"). */
  function nostrConn(state, pid, who) {
    var handlers = {};
    var conn = {
      peer: who,
      open: true,
      path: "nostr",
      serialization: "raw",
      peerConnection: (state.room.getPeers() || {})[pid] || null,
      on: function (event, fn) {
        (handlers[event] = handlers[event] || []).push(fn);
        if (event === "open" && conn.open) setTimeout(fn, 0);
      },
      send: function (text) {
        if (!conn.open) throw new Error("net.js: the Nostr channel is closed");
        state.tell(state.data, String(text), pid);
      },
      close: function () {
        if (!conn.open) return;
        state.tell(state.bye, "{}", pid);
        conn._gone();
      },
      _fire: function (event, value) {
        (handlers[event] || []).slice().forEach(function (fn) { fn(value); });
      },
      _gone: function () {
        if (!conn.open) return;
        conn.open = false;
        if (state.conns[pid] === conn) delete state.conns[pid];
        conn._fire("close");
      },
    };
    state.conns[pid] = conn;
    return conn;
  }

  /** (caller) Call `who` over the relays: now if its hello was heard, else when it is. */
  function nostrCall(who) {
    if (!nostr) return;
    nostrWanted = who;
    var gen = generation;
    var ids = nostr.ids;
    for (var pid in ids) {
      if (ids[pid] === who) {
        nostrPick(pid, who);
        return;
      }
    }
    later(function () {
      if (gen !== generation || nostrWanted !== who || (current && current.peer === who)) return;
      nostrWanted = "";
      emit("error", who, "connect-timeout");
    }, settings.connectTimeoutMs);
  }

  function nostrPick(pid, who) {
    if (!nostr || !nostr.room || (current && current.open)) return;
    nostrWanted = "";
    if (current) quietClose(current); // PeerJS's call, still opening: this one replaces it
    current = null;
    var old = nostr.conns[pid];
    if (old) old._gone();
    nostr.tell(nostr.pick, { to: who }, pid);
    adopt(nostrConn(nostr, pid, who), "out");
  }

  function connect(remoteId) {
    var who = String(remoteId || "");
    if (mesh) {
      meshConnect(who);
      return;
    }
    var viaPeer = !!(peer && peer.open);
    if (!viaPeer && !(nostr && nostr.ready)) {
      emit("error", who, "not-open");
      return;
    }
    if (current) release("replaced");
    nostrWanted = "";
    if (!viaPeer) {
      nostrCall(who);
      return;
    }
    var conn = peer.connect(who, { reliable: true, serialization: "raw" });
    adopt(conn, "out");
    if (nostr) {
      var gen = generation;
      later(function () { // PeerJS first; the relays if the host has not answered by then
        var pc = conn.peerConnection;
        if (gen === generation && current === conn && !conn.open && !(pc && pc.remoteDescription)) nostrCall(who);
      }, NOSTR_AFTER_MS);
    }
  }

  function send(text, remoteId) {
    if (mesh) return meshSend(text, String(remoteId || ""));
    if (!current || !current.open) return false;
    try {
      current.send(String(text));
      return true;
    } catch (error) {
      console.error("net.js: send failed:", error);
      return false;
    }
  }

  function drop(remoteId) {
    if (mesh) meshRelease(String(remoteId || ""), "dropped");
    else release("dropped");
  }

  function close() {
    handler = null;
    teardown();
  }

  function status() {
    if (mesh) return meshStatus();
    return JSON.stringify({
      id: peer && peer.id ? peer.id : "",
      registered: !!(peer && peer.open),
      remote: current ? current.peer : "",
      channel: current ? (current.open ? "open" : "opening") : "none",
      direction: currentDir,
      path: current ? current.path || "peerjs" : "",
      nostr: nostr ? (nostr.ready ? "ready" : "joining") : "off",
      ice: current && current.peerConnection ? current.peerConnection.iceConnectionState : iceState,
      signal: signalUrl || configuredSignal(),
    });
  }

  /** The open channel's selected candidate pair, as JSON (see the header), or "". */
  function route(remoteId) {
    var conn = current;
    if (mesh) {
      var entry = mesh[String(remoteId || "")];
      conn = entry && entry.opened ? entry.conn : null;
    }
    var pc = conn && conn.open ? conn.peerConnection : null;
    if (!pc || typeof pc.getStats !== "function") return Promise.resolve("");
    return pc.getStats().then(function (report) {
      var byId = {};
      var pair = null;
      report.forEach(function (s) { byId[s.id] = s; });
      report.forEach(function (s) {
        if (s.type === "transport" && s.selectedCandidatePairId) pair = byId[s.selectedCandidatePairId] || pair;
      });
      if (!pair) {
        report.forEach(function (s) {
          if (!pair && s.type === "candidate-pair" && s.nominated && s.state === "succeeded") pair = s;
        });
      }
      if (!pair) return "";
      var local = byId[pair.localCandidateId] || {};
      var remote = byId[pair.remoteCandidateId] || {};
      return JSON.stringify({
        local: String(local.candidateType || ""),
        remote: String(remote.candidateType || ""),
        protocol: String(local.protocol || ""),
      });
    }, function () { return ""; });
  }

  // The mesh mode: a page going away (closed, reloaded, navigated) closes its channels, so each
  // other page is told "close" "closed" at once rather than waiting for its heartbeat. (The
  // two-player mode leaves its channel to the heartbeat, as it always did.) No window events in the
  // Node probes of tests/infra and tests/web/test_qr.py, which load this file in a bare context.
  if (typeof window.addEventListener === "function") window.addEventListener("pagehide", function () {
    if (!mesh) return;
    var held = mesh;
    Object.keys(held).forEach(function (who) {
      var entry = held[who];
      delete held[who];
      clearTimeout(entry.timeout);
      quietClose(entry.conn); // (this page is told nothing: it is going)
    });
  });

  window.cribbageNet = Object.freeze({
    open: open,
    connect: connect,
    send: send,
    drop: drop,
    close: close,
    admit: admit,
    refuse: refuse,
    status: status,
    route: route,
    signal: configuredSignal,
    untrusted: untrusted,
    qr: qr,
  });
})();
