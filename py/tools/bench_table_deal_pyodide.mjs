#!/usr/bin/env node
// Time the proven deal at two, three and four seats inside Pyodide (the Python the browser runs), under Node.
//
//   node py/tools/bench_table_deal_pyodide.mjs [seats]      (default "2,3,4")
//
// Runs py/tools/bench_table_deal.py inside Pyodide: key set-up, one full shuffle round and opening a
// hand for each number of seats, every seat on its own virtual clock.

import { loadRepoPyodide } from "./node_pyodide.mjs";

const seats = String(process.argv[2] || "2,3,4");
const pyodide = await loadRepoPyodide("bench_table_deal_pyodide");
pyodide.globals.set("SEATS", seats);
await pyodide.runPythonAsync(`
import sys, platform, runpy
sys.dont_write_bytecode = True
print(f"Pyodide: Python {platform.python_version()}")
sys.argv = ["bench_table_deal.py", "--seats", SEATS]
runpy.run_path("/repo/py/tools/bench_table_deal.py", run_name="__main__")
`);
