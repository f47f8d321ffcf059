#!/usr/bin/env node
// Render LaTeX fragments with plain KaTeX (no custom macros) and report which fail.
//
// stdin:  JSON list of {"latex": string, "display": bool}
// stdout: JSON list of {"ok": bool, "error": string|null, "warnings": [string]},
//         same length and order. Warnings are KaTeX's strict-mode complaints
//         (LaTeX-incompatible input that KaTeX still renders); by default KaTeX
//         only prints them to the console, where a test would never see them.
// exit:   0 when every item was attempted (failures are data, not an exit code),
//         2 when the input itself is not a list of such objects.
"use strict";

const katex = require("katex");

function readStdin() {
  return require("fs").readFileSync(0, "utf8");
}

function fail(message) {
  process.stderr.write(`render.js: ${message}\n`);
  process.exit(2);
}

let items;
try {
  items = JSON.parse(readStdin());
} catch (err) {
  fail(`stdin is not JSON: ${err.message}`);
}
if (!Array.isArray(items)) {
  fail(`expected a JSON list of {latex, display}, got ${typeof items}`);
}

const results = items.map((item, i) => {
  if (item === null || typeof item.latex !== "string" || typeof item.display !== "boolean") {
    fail(`item ${i}: expected {"latex": string, "display": bool}, got ${JSON.stringify(item)}`);
  }
  const warnings = [];
  const collect = (code, message) => {
    warnings.push(`${code}: ${message}`);
    return "ignore";
  };
  try {
    katex.renderToString(item.latex, {
      throwOnError: true,
      displayMode: item.display,
      strict: collect,
    });
    return { ok: true, error: null, warnings };
  } catch (err) {
    return { ok: false, error: String(err.message || err), warnings };
  }
});

process.stdout.write(JSON.stringify(results));
