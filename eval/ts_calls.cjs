// Where each call site's callee is declared, as the TypeScript language service says
// (getDefinitionAtPosition): an independent oracle for eval/ts_references_truth.py.
//   node eval/ts_calls.cjs TYPESCRIPT_MODULE_DIR ROOT < sites   (one JSON line each)
// Input lines: {"path", "line", "column"} (1-based line, 0-based column of the called name).
// Output, one line per input line: {"answered": bool, "defs": [[path, line, callable], ...]}:
// the declarations in ROOT (outside node_modules), each by its file and the line of its name;
// callable: a function, method, class or constructor, or a variable or property whose value
// is a function.
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require(process.argv[2]);
const root = path.resolve(process.argv[3]);

const input = fs.readFileSync(0, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const files = [...new Set(input.map((s) => path.join(root, s.path)))];
const options = {
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ESNext,
  allowJs: true,
  jsx: ts.JsxEmit.Preserve,
  allowImportingTsExtensions: true,
  noEmit: true,
  skipLibCheck: true,
};
const texts = new Map();
const read = (f) => {
  if (!texts.has(f)) texts.set(f, ts.sys.fileExists(f) ? ts.sys.readFile(f) : undefined);
  return texts.get(f);
};
const host = {
  getScriptFileNames: () => files,
  getScriptVersion: () => "1",
  getScriptSnapshot: (f) => {
    const text = read(f);
    return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
  },
  getCurrentDirectory: () => root,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: read,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());
const program = service.getProgram();

const CALLABLE = new Set(["function", "local function", "method", "class", "constructor"]);
const FUNCTION_VALUES = new Set([ts.SyntaxKind.ArrowFunction, ts.SyntaxKind.FunctionExpression]);

function declaredFunction(source, start) {
  // a variable or property declared with a function as its value (const f = () => ...)
  let node = ts.getTokenAtPosition(source, start);
  while (node && !ts.isVariableDeclaration(node) && !ts.isPropertyDeclaration(node)
         && !ts.isPropertyAssignment(node)) node = node.parent;
  return Boolean(node && node.initializer && FUNCTION_VALUES.has(node.initializer.kind));
}

for (const site of input) {
  const file = path.join(root, site.path);
  const source = program.getSourceFile(file);
  let defs = [];
  let answered = false;
  if (source) {
    const pos = source.getPositionOfLineAndCharacter(site.line - 1, site.column);
    let found;
    try {
      found = service.getDefinitionAtPosition(file, pos) || [];
    } catch (e) {
      found = [];
    }
    answered = found.length > 0;
    for (const d of found) {
      const rel = path.relative(root, d.fileName);
      if (rel.startsWith("..") || rel.includes("node_modules")) continue;
      const target = program.getSourceFile(d.fileName);
      if (!target) continue;
      const line = target.getLineAndCharacterOfPosition(d.textSpan.start).line + 1;
      const callable = CALLABLE.has(d.kind) || declaredFunction(target, d.textSpan.start);
      defs.push([rel, line, callable]);
    }
  }
  process.stdout.write(JSON.stringify({ answered, defs }) + "\n");
}
