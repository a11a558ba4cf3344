#!/usr/bin/env node
// Time the play search at a table of three and four inside Pyodide (the Python the browser runs).
//
//   node py/tools/bench_table_play_pyodide.mjs [hands] [budget]   (default 30 deals, the default budget)
//
// Runs py/tools/bench_table_play.py's stand-alone play (no engine needed): the searching seat (or
// partnership) in every position against greedy seats, and prints the median, p95 and longest
// decision in CPU time of the Node process (process.cpuUsage: user + system, so its helper threads
// count too, a slight overestimate), to hold against the table's main-thread limit (~100 ms a decision).

import { loadRepoPyodide } from "./node_pyodide.mjs";

const hands = Number(process.argv[2] || 30);
const budget = process.argv[3] ? Number(process.argv[3]) : null;
const pyodide = await loadRepoPyodide("bench_table_play_pyodide");
pyodide.globals.set("HANDS", hands);
pyodide.globals.set("BUDGET_ARG", budget);
await pyodide.runPythonAsync(`
import sys, platform
sys.dont_write_bytecode = True
sys.path.insert(0, "/repo/py")
sys.path.insert(0, "/repo/py/tools")
import bench_table_play, js
def _cpu():
    u = js.process.cpuUsage()
    return (u.user + u.system) / 1e6
bench_table_play.CLOCK = _cpu  # Node's CPU time: other jobs on the machine do not inflate it
from cribbage.ai.table_play import BUDGET
print(f"Pyodide: Python {platform.python_version()}")
args = ["--hands", str(HANDS), "--budget", str(BUDGET_ARG or BUDGET)]
bench_table_play.main(args)
`);
