#!/usr/bin/env node
// Time the proven deal at three and four seats inside Pyodide (the Python the browser runs), under Node.
//
//   node py/tools/bench_table_deal_pyodide.mjs [arguments of bench_table_deal.py]   (e.g. --phases-only)
//
// Runs py/tools/bench_table_deal.py inside Pyodide: the cost of each phase of the crypto, then whole
// hands with every seat on its own virtual clock (CPU time: Node's process.cpuUsage()).

import { loadRepoPyodide } from "./node_pyodide.mjs";

const args = process.argv.slice(2);
const pyodide = await loadRepoPyodide("bench_table_deal_pyodide");
pyodide.globals.set("ARGS", pyodide.toPy(args));
await pyodide.runPythonAsync(`
import sys, platform, runpy
sys.dont_write_bytecode = True
print(f"Pyodide: Python {platform.python_version()}")
sys.argv = ["bench_table_deal.py", *ARGS]
runpy.run_path("/repo/py/tools/bench_table_deal.py", run_name="__main__")
`);
