// Times of drawing the room link's QR code, under Node (V8, the engine of Chromium): each JS
// library loaded and run, our matrix-to-SVG in Pyodide, and Python encoders run inside Pyodide.
// Driven by py/tools/bench_qr.py, which passes one JSON argument and reads one JSON line back:
//   {"link": str, "runs": int, "root": path of the repo,
//    "js": [{"name", "path", "kind": "classic"|"esm"}], "py": [{"name", "wheel"?: path, "source"?: text}]}
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

for (const event of ["uncaughtException", "unhandledRejection"]) {
  process.on(event, (e) => { console.error(String(e).slice(0, 2000)); process.exit(1); }); // not the minified source line
}

const config = JSON.parse(process.argv[2]);
const { link, runs, root } = config;
const now = () => performance.now();
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };

/** Rows of "0"/"1" joined by "\n" from a library's symbol (no quiet zone). */
async function jsCandidate(lib) {
  const t0 = now();
  let encode;
  if (lib.kind === "classic") {
    // as a <script>: read, compile, run in the global scope (window.qrcode)
    const context = vm.createContext({});
    new vm.Script(readFileSync(lib.path, "utf8"), { filename: lib.path }).runInContext(context);
    const qrcode = context.qrcode;
    qrcode.stringToBytes = qrcode.stringToBytesFuncs["UTF-8"];
    encode = (text) => {
      const qr = qrcode(0, "M");
      qr.addData(text, "Byte");
      qr.make();
      const n = qr.getModuleCount(), rows = [];
      for (let r = 0; r < n; r++) {
        let row = "";
        for (let c = 0; c < n; c++) row += qr.isDark(r, c) ? "1" : "0";
        rows.push(row);
      }
      return rows.join("\n");
    };
  } else {
    const mod = await import(pathToFileURL(lib.path).href + "?" + Math.random());
    // as static/net.js calls it: the text's UTF-8 bytes (byte mode), level M, no quiet zone
    encode = (text) => mod.encode(Array.from(new TextEncoder().encode(text)), { ecc: "M", border: 0 }).data
      .map((row) => row.map((dark) => (dark ? "1" : "0")).join("")).join("\n");
  }
  const load = now() - t0;
  const t1 = now();
  const rows = encode(link);
  const first = now() - t1;
  const warm = [];
  for (let i = 0; i < runs; i++) {
    const t = now();
    encode(link + i); // a new link each time (nothing cached)
    warm.push(now() - t);
  }
  return { name: lib.name, load_ms: load, first_ms: first, warm_ms: median(warm), rows };
}

const results = { js: [], py: [] };
for (const lib of config.js) results.js.push(await jsCandidate(lib));

const { loadPyodide } = await import(pathToFileURL(`${root}/node_modules/pyodide/pyodide.mjs`).href);
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/bench/web/kit");
pyodide.FS.writeFile("/bench/web/__init__.py", "");
pyodide.FS.writeFile("/bench/web/kit/__init__.py", "");
pyodide.FS.writeFile("/bench/web/kit/qr_svg.py", readFileSync(`${root}/py/web/kit/qr_svg.py`, "utf8"));
pyodide.runPython("import sys; sys.path.insert(0, '/bench'); import html, typing");  // the page has them at start

const timePy = (code) => { const t = now(); pyodide.runPython(code); return now() - t; };

// our matrix-to-SVG, given the rows a JS library made (the page's half of the work)
if (results.js.length) {
  pyodide.globals.set("ROWS", results.js[0].rows);
  const load = timePy("from web.kit.qr_svg import parse_modules, qr_svg");
  const first = timePy("SVG = qr_svg(parse_modules(ROWS), label='QR code of the room link')");
  const warm = [];
  for (let i = 0; i < runs; i++) warm.push(timePy("qr_svg(parse_modules(ROWS), label='QR code of the room link')"));
  results.py.push({ name: "kit/qr_svg.py (rows to SVG)", load_ms: load, first_ms: first, warm_ms: median(warm) });
}

for (const cand of config.py) {
  pyodide.globals.set("LINK", link);
  let load;
  if (cand.wheel) {
    const t = now();
    pyodide.unpackArchive(new Uint8Array(readFileSync(cand.wheel)), "wheel", { extractDir: `/wheels/w${results.py.length}` });
    pyodide.runPython(`import sys; sys.path.insert(0, '/wheels/w${results.py.length}'); import segno, io`);
    load = now() - t;
    var draw = "buf = io.BytesIO(); segno.make(LINK, error='m', mode='byte', boost_error=False, micro=False).save(buf, kind='svg', border=4, xmldecl=False, svgns=True)";
  } else {
    pyodide.FS.writeFile("/bench/old_qr.py", cand.source);
    load = timePy("import old_qr");
    var draw = "old_qr.qr_svg(LINK, label='QR code of the room link')";
  }
  const first = timePy(draw);
  const warm = [];
  for (let i = 0; i < runs; i++) {
    pyodide.globals.set("LINK", link + i);
    warm.push(timePy(draw));
  }
  results.py.push({ name: cand.name, load_ms: load, first_ms: first, warm_ms: median(warm) });
}
for (const r of results.js) delete r.rows;
console.log(JSON.stringify(results));
