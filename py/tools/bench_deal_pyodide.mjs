#!/usr/bin/env node
// Time the cryptographic deal of online play inside Pyodide (the Python the browser runs), under Node.
//
//   node py/tools/bench_deal_pyodide.mjs [hands]      (default 3 hands)
//
// Runs py/tools/bench_deal.py inside Pyodide: per browser, the shuffle and deal of one hand, the
// big-integer work and the bytes exchanged per hand, then the cost of one power of each kind.

import { loadRepoPyodide } from "./node_pyodide.mjs";

const hands = Number(process.argv[2] || 3);
const pyodide = await loadRepoPyodide("bench_deal_pyodide");
pyodide.globals.set("HANDS", hands);
await pyodide.runPythonAsync(`
import sys, platform, runpy
sys.dont_write_bytecode = True
print(f"Pyodide: Python {platform.python_version()}")
sys.argv = ["bench_deal.py", "--hands", str(HANDS)]
runpy.run_path("/repo/py/tools/bench_deal.py", run_name="__main__")
`);
