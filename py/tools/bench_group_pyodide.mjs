#!/usr/bin/env node
// Time the group operations of the proven deal inside Pyodide (the Python the browser runs), under Node.
//
//   node py/tools/bench_group_pyodide.mjs [repeat]      (default 20)
//
// Runs py/tools/bench_group.py inside Pyodide: P-256 and the small test group, milliseconds an operation.

import { loadRepoPyodide } from "./node_pyodide.mjs";

const repeat = Number(process.argv[2] || 20);
const pyodide = await loadRepoPyodide("bench_group_pyodide");
pyodide.globals.set("REPEAT", repeat);
await pyodide.runPythonAsync(`
import sys, runpy
sys.dont_write_bytecode = True
sys.argv = ["bench_group.py", "--repeat", str(REPEAT)]
runpy.run_path("/repo/py/tools/bench_group.py", run_name="__main__")
`);
