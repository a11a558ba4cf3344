// The game's saves, settings and record on disk: IndexedDB, written in "strict" transactions
// (the browser reports a write complete only once it is flushed to disk), read whole into memory
// as the page opens, so Python reads synchronously (classic script, no dependencies).
//
// Why not localStorage: Chromium writes it to disk lazily, so a browser killed as a phone kills a
// background app came back with a room record older than what the page had already sent and
// acknowledged (issue 16). Online play now sends nothing before the write that produced it is
// durable (py/web/sessions/online/peer.py asks `whenDurable`).
//
// Layout: database "cribbage", object store "kv" (key -> string, the same keys and values as
// localStorage held) and "meta" (bookkeeping: when localStorage was migrated). One value per key
// keeps export/import and every reader unchanged; a room record (~60 KB) is rewritten whole, which
// measured a few milliseconds (see docs/performance.md, Online play / the branch's report).
//
// window.cribbageStore:
//   ready            a promise, settled once every key is in memory (static/loader.mjs awaits it
//                    before Python starts); never rejects
//   backend          "indexeddb", or "localstorage" / "memory" where IndexedDB cannot open
//   get(key)         the value (string) or undefined         keys()  every key, sorted
//   set(key, value)  write-through; returns the write's number
//   remove(key)      the same, forgetting the key
//   whenDurable(fn)  call fn() once every write made so far is on disk (at once if it is already)
//   written, durable the last write made, the last write on disk (every earlier one is too)
//   error            why the last write failed (undefined: none outstanding); failed keys are retried
//                    with the next write and every RETRY_MS
//   timings          {open, read, migrate} in ms, and keys/chars read: for the tests and benches
(function () {
  "use strict";

  var DB_NAME = "cribbage";
  var KV = "kv";
  var META = "meta";
  var PREFIX = "cribbage."; // the game's keys (the loader's own flag is not one of them)
  var OPEN_TIMEOUT_MS = 10000;
  var RETRY_MS = 2000;
  var started = performance.now();

  var data = new Map();
  var db = null;
  var pending = new Set(); // keys written since the last transaction began
  var failed = new Set(); // keys whose last transaction failed, not written since
  var inflight = false; // at most one transaction at a time: later writes coalesce into the next
  var scheduled = false;
  var retryTimer = 0;
  var waiters = []; // [write number, fn], oldest first
  var tabs = null; // other tabs of this origin hear every write (their copy stays current)

  var store = {
    backend: "pending",
    written: 0,
    durable: 0,
    error: undefined,
    timings: {},
    ready: null,
    get: function (key) {
      return data.get(String(key)); // undefined if absent (None in Python; JS null would not be)
    },
    keys: function () {
      return Array.from(data.keys()).sort();
    },
    set: function (key, value) {
      return write(String(key), String(value));
    },
    remove: function (key) {
      return write(String(key), null);
    },
    whenDurable: function (fn) {
      if (store.durable >= store.written) {
        fn();
      } else {
        waiters.push([store.written, fn]);
      }
    },
  };
  window.cribbageStore = store;

  function describe(error) {
    var name = (error && error.name) || "Error";
    if (name === "QuotaExceededError") return "the browser's storage is full";
    return "the browser refused to save (" + name + (error && error.message ? ": " + error.message : "") + ")";
  }

  function settle(upto) {
    if (upto > store.durable) store.durable = upto;
    while (waiters.length && waiters[0][0] <= store.durable) {
      var fn = waiters.shift()[1];
      try {
        fn();
      } catch (error) {
        console.error(error);
      }
    }
  }

  function write(key, value) {
    if (value === null) data.delete(key);
    else data.set(key, value);
    store.written += 1;
    if (tabs) {
      try {
        tabs.postMessage({ key: key, value: value });
      } catch (error) {}
    }
    if (store.backend === "indexeddb") {
      pending.add(key);
      schedule();
    } else if (store.backend === "localstorage") {
      try {
        if (value === null) localStorage.removeItem(key);
        else localStorage.setItem(key, value);
        store.error = undefined;
      } catch (error) {
        store.error = describe(error);
      }
      settle(store.written); // as durable as localStorage gets
    } else if (store.backend === "memory") {
      settle(store.written);
    } else {
      pending.add(key); // before the store is open (Python has not started yet: never, in practice)
    }
    return store.written;
  }

  function schedule() {
    if (scheduled || inflight || !db) return;
    scheduled = true;
    queueMicrotask(flush); // the writes of one Python batch go in one transaction
  }

  function flush() {
    scheduled = false;
    if (inflight || !db) return;
    var keys = new Set(pending);
    failed.forEach(function (key) { keys.add(key); });
    if (!keys.size) return;
    pending.clear();
    var upto = store.written;
    var tx;
    try {
      tx = db.transaction([KV], "readwrite", { durability: "strict" });
      var kv = tx.objectStore(KV);
      keys.forEach(function (key) {
        if (data.has(key)) kv.put(data.get(key), key);
        else kv.delete(key);
      });
    } catch (error) {
      fail(keys, error);
      return;
    }
    inflight = true;
    tx.oncomplete = function () {
      inflight = false;
      keys.forEach(function (key) { failed.delete(key); });
      if (!failed.size) {
        store.error = undefined;
        settle(upto);
      }
      schedule();
    };
    tx.onabort = function () {
      inflight = false;
      fail(keys, tx.error);
    };
    if (tx.commit) tx.commit();
  }

  function fail(keys, error) {
    keys.forEach(function (key) { failed.add(key); });
    store.error = describe(error);
    console.warn("cribbageStore: a write failed:", store.error);
    if (!retryTimer) {
      retryTimer = setTimeout(function () {
        retryTimer = 0;
        schedule();
      }, RETRY_MS);
    }
  }

  function request(req) {
    return new Promise(function (resolve, reject) {
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }

  function open() {
    return new Promise(function (resolve, reject) {
      if (!window.indexedDB) {
        reject(new Error("no IndexedDB"));
        return;
      }
      var timer = setTimeout(function () { reject(new Error("IndexedDB did not open in time")); }, OPEN_TIMEOUT_MS);
      var req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = function () {
        var created = req.result;
        if (!created.objectStoreNames.contains(KV)) created.createObjectStore(KV);
        if (!created.objectStoreNames.contains(META)) created.createObjectStore(META);
      };
      req.onsuccess = function () {
        clearTimeout(timer);
        resolve(req.result);
      };
      req.onerror = function () {
        clearTimeout(timer);
        reject(req.error);
      };
    });
  }

  function localKeys() {
    var found = [];
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var key = localStorage.key(i);
        if (key !== null && key.indexOf(PREFIX) === 0) found.push(key);
      }
    } catch (error) {}
    return found;
  }

  // Once per browser: the keys localStorage held before this store existed are copied in (a key
  // already here wins: it was written later), in one strict transaction with the "migrated" mark;
  // once that is on disk they are removed from localStorage, so an older copy of the page can never
  // resume a room from a stale record there.
  function migrate(opened, meta) {
    if (meta) return Promise.resolve(0);
    var keys = localKeys();
    var copied = 0;
    return new Promise(function (resolve) {
      var tx = opened.transaction([KV, META], "readwrite", { durability: "strict" });
      var kv = tx.objectStore(KV);
      keys.forEach(function (key) {
        if (data.has(key)) return;
        var value = localStorage.getItem(key);
        if (value === null) return;
        data.set(key, value);
        kv.put(value, key);
        copied += 1;
      });
      tx.objectStore(META).put({ at: Date.now(), keys: copied }, "migrated");
      tx.oncomplete = function () {
        keys.forEach(function (key) {
          try {
            localStorage.removeItem(key);
          } catch (error) {}
        });
        resolve(copied);
      };
      tx.onabort = function () {
        console.warn("cribbageStore: the copy from localStorage failed; it is tried again next time", tx.error);
        resolve(copied); // the values are in memory meanwhile, and localStorage still holds them
      };
    });
  }

  function load(opened) {
    var t0 = performance.now();
    var tx = opened.transaction([KV, META], "readonly");
    var kv = tx.objectStore(KV);
    return Promise.all([request(kv.getAllKeys()), request(kv.getAll()), request(tx.objectStore(META).get("migrated"))])
      .then(function (got) {
        var keys = got[0], values = got[1], chars = 0;
        for (var i = 0; i < keys.length; i++) {
          if (typeof keys[i] === "string" && typeof values[i] === "string" && !data.has(keys[i])) {
            data.set(keys[i], values[i]);
            chars += values[i].length;
          }
        }
        store.timings.read = performance.now() - t0;
        store.timings.keys = keys.length;
        store.timings.chars = chars;
        var t1 = performance.now();
        return migrate(opened, got[2]).then(function (copied) {
          store.timings.migrate = performance.now() - t1;
          store.timings.migrated = copied;
        });
      });
  }

  function fallback(error) {
    console.warn("cribbageStore: IndexedDB is not available, saving to localStorage:", error);
    db = null;
    pending.clear();
    try {
      localKeys().forEach(function (key) { data.set(key, localStorage.getItem(key)); });
      store.backend = "localstorage";
    } catch (e) {
      store.backend = "memory";
      store.error = "this browser keeps nothing between visits (storage is blocked)";
    }
    settle(store.written);
  }

  store.ready = open()
    .then(function (opened) {
      store.timings.open = performance.now() - started;
      return load(opened).then(function () {
        db = opened;
        db.onversionchange = function () { db.close(); }; // never blocks another tab
        store.backend = "indexeddb";
        schedule();
      });
    })
    .catch(fallback)
    .then(function () {
      store.timings.ready = performance.now() - started;
      try {
        tabs = new BroadcastChannel("cribbage-store");
        tabs.onmessage = function (event) {
          var m = event.data;
          if (!m || typeof m.key !== "string") return;
          if (m.value === null) data.delete(m.key);
          else if (typeof m.value === "string") data.set(m.key, m.value);
        };
      } catch (error) {}
    });
})();
