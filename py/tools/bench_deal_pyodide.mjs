#!/usr/bin/env node
// Time the cryptographic deal of online play inside Pyodide (the Python the browser runs), under Node.
//
//   node py/tools/bench_deal_pyodide.mjs [hands]      (default 3 hands)
//
// Runs py/tools/bench_deal.py inside Pyodide: per browser, the shuffle and deal of one hand, the
// big-integer work and the bytes exchanged per hand, then the cost of one power of each kind.

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pyodideDir = join(repo, "node_modules", "pyodide");
if (!existsSync(join(pyodideDir, "pyodide.mjs"))) {
  console.error("bench_deal_pyodide: node_modules/pyodide is missing: run `npm ci`");
  process.exit(4);
}
const hands = Number(process.argv[2] || 3);
const { loadPyodide } = await import(join(pyodideDir, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
const write = (stream) => ({ write: (bytes) => { stream.write(bytes); return bytes.length; } });
pyodide.setStdout(write(process.stdout));
pyodide.setStderr(write(process.stderr));
pyodide.FS.mkdirTree("/repo");
pyodide.mountNodeFS("/repo", repo);
pyodide.globals.set("HANDS", hands);
await pyodide.runPythonAsync(`
import sys, platform, runpy
sys.dont_write_bytecode = True
print(f"Pyodide: Python {platform.python_version()}")
sys.argv = ["bench_deal.py", "--hands", str(HANDS)]
runpy.run_path("/repo/py/tools/bench_deal.py", run_name="__main__")
`);
